import path from "node:path";
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import yauzl from "yauzl";
import { toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { AppError, fieldError } from "../../errors.js";
import { isZipStart, localCopy, startsWithZipMagic } from "../../storage/localCopy.js";

const NOT_XLSX_MESSAGE = "The file is not an Excel workbook (.xlsx)";
const noSuchSheetMessage = (sheet: string) => `The workbook has no sheet named "${sheet}"`;

export type XlsxReading = {
  /** The sheet to read by its tab name; null reads the first tab. */
  sheet: string | null;
  /** Told the workbook's tab names, in tab order, before the first record. */
  onSheets?: (names: string[]) => void;
};

/** An OPC relationship: xl/_rels/workbook.xml.rels ties the workbook to its sheets, shared strings and styles. */
type Relationship = { Id: string; Type: string; Target: string };

/**
 * The parts of exceljs's streaming WorkbookReader we drive ourselves (exceljs 4.4.0, pinned). Its own
 * parse() reads the archive in one streaming pass, and that pass sometimes ends before the last
 * entry: an ExcelJS-written workbook stores xl/workbook.xml last, so the sheet names were missing
 * and a good file was refused (exceljs/exceljs#3064, fixed upstream in the same way by the open
 * PR #3065). Reading through the zip's central directory instead, the workbook, shared strings
 * and styles are parsed before the one sheet wanted, whatever order they were stored in.
 */
type WorkbookParts = {
  model?: { sheets?: { name: string; id: number; rId: string }[] };
  workbookRels?: Relationship[];
  sharedStrings?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(entry: Readable, sheetNo: string): Iterable<{ value: AsyncIterable<ExcelJS.Row> }>;
};

const WORKBOOK = "xl/workbook.xml";
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
const RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

/**
 * The records of one sheet of an .xlsx, as csvRecords gives a CSV file's: every cell as text, rows
 * whose cells are all blank skipped, the first record the header. The upload is copied to a local
 * file and read through its zip directory: only the workbook, its shared-string table (the
 * distinct texts; Excel and LibreOffice write every text there), its styles (a date is a number
 * styled as one) and the chosen sheet are read; that sheet row by row, with exceljs's streaming
 * worksheet reader. Memory holds the shared strings and one row. Each cell is given in the form
 * CSV_READING gives a cell of our CSV export (toSpreadsheetSafe): a spreadsheet cell is typed, so
 * its text is exact, and readRow's fromSpreadsheetSafe gives it back unchanged.
 * A file that is not an .xlsx (or is damaged) is a 400 on file_name; a sheet it lacks, a 400 on sheet.
 */
export async function* xlsxRecords(input: Readable, reading: XlsxReading): AsyncGenerator<string[]> {
  const copy = await localCopy(input, "xlsx");
  let archive: yauzl.ZipFile | undefined;
  try {
    if (!(await startsWithZipMagic(copy.file))) throw fieldError("file_name", NOT_XLSX_MESSAGE);
    archive = await yauzl.openPromise(copy.file, { lazyEntries: true, autoClose: false });
    const workbook = await openWorkbook(archive);
    const sheet = reading.sheet === null ? workbook.sheets[0] : workbook.sheets.find((candidate) => candidate.name === reading.sheet);
    if (!sheet) throw fieldError("sheet", noSuchSheetMessage(reading.sheet ?? ""));
    reading.onSheets?.(workbook.sheets.map((candidate) => candidate.name));
    for await (const row of await workbook.rowsOf(sheet)) {
      const cells = rowCells(row);
      if (cells.some((cell) => cell.trim() !== "")) yield cells.map(toSpreadsheetSafe);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fieldError("file_name", `${NOT_XLSX_MESSAGE}: ${(error as Error).message}`);
  } finally {
    archive?.close();
    await copy.remove();
  }
}

type SheetPart = { name: string; part: string; number: string };

/** The workbook's tabs in tab order, each with its part, and a reader of a tab's rows. */
async function openWorkbook(
  archive: yauzl.ZipFile,
): Promise<{ sheets: SheetPart[]; rowsOf(sheet: SheetPart): Promise<AsyncIterable<ExcelJS.Row>> }> {
  const entries = new Map<string, yauzl.Entry>();
  for await (const entry of archive.eachEntry()) entries.set(entry.fileName, entry);
  const open = async (part: string) => {
    const entry = entries.get(part);
    if (!entry) throw new Error(`it holds no ${part}`);
    return archive.openReadStreamPromise(entry);
  };
  // A zip without a workbook: a .docx, say, or any other archive renamed.
  if (!entries.has(WORKBOOK) || !entries.has(WORKBOOK_RELS)) throw new Error("it holds no worksheet");
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), { styles: "cache" }) as unknown as WorkbookParts;
  await reader._parseRels(await open(WORKBOOK_RELS));
  await reader._parseWorkbook(await open(WORKBOOK));
  const relationships = reader.workbookRels ?? [];
  const partOf = (target: string) => (target.startsWith("/") ? target.slice(1) : path.posix.join("xl", target));
  const related = (type: string) => relationships.find((relationship) => relationship.Type === RELATIONSHIP + type);
  const sharedStrings = related("sharedStrings");
  reader.sharedStrings = [];
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(await open(partOf(sharedStrings.Target))));
  const styles = related("styles");
  if (styles) await reader._parseStyles(await open(partOf(styles.Target)));
  const sheets = (reader.model?.sheets ?? []).flatMap((sheet) => {
    const relationship = relationships.find((candidate) => candidate.Id === sheet.rId);
    if (!relationship) return [];
    const part = partOf(relationship.Target);
    return [{ name: sheet.name, part, number: /(\d+)\.xml$/.exec(part)?.[1] ?? String(sheet.id) }];
  });
  if (sheets.length === 0) throw new Error("it holds no worksheet");
  return {
    sheets,
    rowsOf: async (sheet) => {
      const [worksheet] = reader._parseWorksheet(await open(sheet.part), sheet.number);
      if (!worksheet) throw new Error(`its sheet "${sheet.name}" could not be read`);
      return worksheet.value;
    },
  };
}

/** POST /api/import-issues refuses an .xlsx upload that is no workbook before any job exists (its first bytes suffice). */
export async function checkIsXlsx(input: Readable): Promise<void> {
  const first = await input[Symbol.asyncIterator]().next();
  input.destroy();
  if (first.done || !isZipStart(first.value as Buffer)) throw fieldError("file_name", NOT_XLSX_MESSAGE);
}

/** A row's cells from column A to its last, each as the text the spreadsheet shows for it. */
function rowCells(row: ExcelJS.Row): string[] {
  const values = row.values as ExcelJS.CellValue[];
  return Array.from({ length: Math.max(0, values.length - 1) }, (_, index) => cellText(values[index + 1]));
}

/** A cell's value as text: a formula by its last result, a date as an ISO date (with its time when it has one), rich text joined. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("error" in value) return value.error;
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("hyperlink" in value) return value.text;
  return "";
}
