import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import yazl from "yazl";
import { describe, expect, it } from "vitest";
import { fromSpreadsheetSafe, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { AppError } from "../../errors.js";
import { writeXlsx } from "./xlsxExport.js";
import { cellText, xlsxRecords, type XlsxReading } from "./xlsxRecords.js";

/** An .xlsx written by our export's writer from these rows (header first). */
async function exportedWorkbook(rows: string[][]): Promise<Buffer> {
  const out = new PassThrough();
  const bytes = buffer(out);
  await writeXlsx(Readable.from(rows.map((row) => row.map(toSpreadsheetSafe))), out);
  return bytes;
}

/** A workbook of several sheets as Excel would save it (exceljs's whole-file writer). */
async function workbookOf(sheets: Record<string, ExcelJS.CellValue[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function recordsOf(file: Buffer, reading: XlsxReading = { sheet: null }): Promise<string[][]> {
  const records: string[][] = [];
  for await (const record of xlsxRecords(Readable.from([file]), reading)) records.push(record.map(fromSpreadsheetSafe));
  return records;
}

async function refusal(file: Buffer, reading: XlsxReading = { sheet: null }): Promise<unknown> {
  try {
    await recordsOf(file, reading);
  } catch (error) {
    return error instanceof AppError ? { status: error.status, body: error.body } : error;
  }
  throw new Error("the file was read");
}

async function zipOf(name: string, content: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return buffer(zip.outputStream as Readable);
}

describe("reading an .xlsx sheet as import records", () => {
  it("gives back exactly the texts our export wrote: formulas, entities, quotes, line breaks, any script", async () => {
    const rows = [
      ["Name", "ID", "Description"],
      ['=HYPERLINK("http://example.invalid","click")', "F-1", 'a, "b"\nc'],
      ["Escape & as &amp; and < as &lt;", "'=quoted", "  leading and trailing spaces  "],
      ["Unicode 注入速度 Überwachung ñandú 😀", "+1", "@SUM(A1)\ttab"],
    ];
    expect(await recordsOf(await exportedWorkbook(rows))).toEqual(rows);
  });

  it("reads the first tab unless a sheet is chosen, and tells the tabs in their order", async () => {
    const file = await workbookOf({
      Overview: [["Name"], ["From the overview"]],
      Detail: [
        ["Name", "ID"],
        ["From the detail", "D-1"],
      ],
    });
    let told: string[] = [];
    expect(await recordsOf(file, { sheet: null, onSheets: (names) => (told = names) })).toEqual([["Name"], ["From the overview"]]);
    expect(told).toEqual(["Overview", "Detail"]);
    expect(await recordsOf(file, { sheet: "Detail" })).toEqual([
      ["Name", "ID"],
      ["From the detail", "D-1"],
    ]);
  });

  it("reads every tab of a workbook whose sheet names are stored last, however many reads run at once", async () => {
    // ExcelJS stores xl/workbook.xml, which names the tabs, after the sheets; exceljs's own streaming pass sometimes lost it.
    const file = await workbookOf({
      Overview: [["Summary"]],
      Detail: [
        ["Name", "ID"],
        ["From the detail", "D-1"],
      ],
    });
    const reads = await Promise.all(Array.from({ length: 40 }, () => recordsOf(file, { sheet: "Detail" })));
    expect(reads).toEqual(
      Array.from({ length: 40 }, () => [
        ["Name", "ID"],
        ["From the detail", "D-1"],
      ]),
    );
  });

  it("finds a tab's sheet through the workbook's relationships, whatever the writer named it and however it addressed it", async () => {
    const zip = await JSZip.loadAsync(await workbookOf({ Overview: [["Summary"]], Detail: [["Name"], ["From the detail"]] }));
    const rels = "xl/_rels/workbook.xml.rels";
    const detail = (await zip.file("xl/worksheets/sheet2.xml")?.async("string")) ?? "";
    zip.remove("xl/worksheets/sheet2.xml");
    zip.file("xl/worksheets/detail.xml", detail);
    const relationships = (await zip.file(rels)?.async("string")) ?? "";
    zip.file(rels, relationships.replace('Target="worksheets/sheet2.xml"', 'Target="/xl/worksheets/detail.xml"'));
    const renamed = await zip.generateAsync({ type: "nodebuffer" });
    expect(await recordsOf(renamed, { sheet: "Detail" })).toEqual([["Name"], ["From the detail"]]);
    zip.remove("xl/worksheets/detail.xml");
    expect(await refusal(await zip.generateAsync({ type: "nodebuffer" }), { sheet: "Detail" })).toEqual({
      status: 400,
      body: { file_name: ["The file is not an Excel workbook (.xlsx): it holds no xl/worksheets/detail.xml"] },
    });
  });

  it("skips blank rows and gives numbers, booleans, dates and formulas as the text the sheet shows", async () => {
    const file = await workbookOf({
      Sheet1: [
        ["Name", "Count", "Done", "Due", "Total"],
        [],
        ["Typed cells", 42.5, true, new Date(Date.UTC(2026, 1, 3)), { formula: "B3*2", result: 85 }],
        ["", "  "],
        [{ richText: [{ text: "Rich " }, { font: { bold: true }, text: "text" }] }],
      ],
    });
    expect(await recordsOf(file)).toEqual([
      ["Name", "Count", "Done", "Due", "Total"],
      ["Typed cells", "42.5", "TRUE", "2026-02-03", "85"],
      ["Rich text"],
    ]);
  });

  it("refuses a file that is not a workbook on file_name, and a sheet the workbook lacks on sheet", async () => {
    const notXlsx = { status: 400, body: { file_name: ["The file is not an Excel workbook (.xlsx)"] } };
    expect(await refusal(Buffer.from("Name,ID\nA,1\n"))).toEqual(notXlsx);
    expect(await refusal(Buffer.alloc(0))).toEqual(notXlsx);
    expect(await refusal(await zipOf("word/document.xml", "<w:document/>"))).toEqual({
      status: 400,
      body: { file_name: ["The file is not an Excel workbook (.xlsx): it holds no worksheet"] },
    });
    expect(await refusal(Buffer.from("PK\u0003\u0004 damaged beyond its first bytes"))).toMatchObject({
      status: 400,
      body: { file_name: [expect.stringMatching(/^The file is not an Excel workbook \(\.xlsx\): /)] },
    });
    const file = await workbookOf({ Overview: [["Name"]] });
    expect(await refusal(file, { sheet: "Missing" })).toEqual({
      status: 400,
      body: { sheet: ['The workbook has no sheet named "Missing"'] },
    });
  });
});

describe("a cell's text", () => {
  it("is a date with its time when it has one, an error by its code, a hyperlink by its text", () => {
    expect(cellText(new Date(Date.UTC(2026, 1, 3, 9, 14)))).toBe("2026-02-03T09:14:00.000Z");
    expect(cellText({ error: "#N/A" } as ExcelJS.CellErrorValue)).toBe("#N/A");
    expect(cellText({ text: "the spec", hyperlink: "https://example.invalid" })).toBe("the spec");
    expect(cellText(null)).toBe("");
  });
});
