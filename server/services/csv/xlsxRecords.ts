import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { AppError, fieldError } from "../../errors.js";

const NOT_XLSX_MESSAGE = "The file is not an Excel workbook (.xlsx)";
const noSuchSheetMessage = (sheet: string) => `The workbook has no sheet named "${sheet}"`;

/** Every .xlsx is a zip archive: its first bytes are a local file header. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export type XlsxReading = {
  /** The sheet to read by its tab name; null reads the first tab. */
  sheet: string | null;
  /** Told the workbook's tab names, in tab order, before the first record. */
  onSheets?: (names: string[]) => void;
};

/** What exceljs's streaming reader knows of the workbook once xl/workbook.xml is read; its types leave it out. */
type ReaderState = { model?: { sheets?: { name: string }[] } };
type SheetReader = AsyncIterable<ExcelJS.Row> & { name: string; iterator: AsyncIterable<unknown> };

/**
 * The records of one sheet of an .xlsx, as csvRecords gives a CSV file's: every cell as text, rows
 * whose cells are all blank skipped, the first record the header. Read with exceljs's streaming
 * reader: rows one at a time, the other sheets read past unparsed. Its memory holds the workbook's
 * shared-string table (the distinct texts; Excel and LibreOffice write every text there) and one
 * row. Each cell is given in the form CSV_READING gives a cell of our CSV export
 * (toSpreadsheetSafe): a spreadsheet cell is typed, so its text is exact, and readRow's
 * fromSpreadsheetSafe gives it back unchanged.
 * A file that is not an .xlsx (or is damaged) is a 400 on file_name; a sheet it lacks, a 400 on sheet.
 */
export async function* xlsxRecords(input: Readable, reading: XlsxReading): AsyncGenerator<string[]> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(await zipOnly(input), { styles: "cache" });
  const state = workbook as unknown as ReaderState;
  const worksheets = (workbook as unknown as AsyncIterable<SheetReader>)[Symbol.asyncIterator]();
  let sheets: string[] | undefined;
  const seen: string[] = [];
  let found = false;
  let readToEnd = false;
  try {
    for (let next = await worksheets.next(); !next.done; next = await worksheets.next()) {
      const worksheet = next.value;
      seen.push(worksheet.name);
      if (!sheets) {
        sheets = (state.model?.sheets ?? []).map((sheet) => sheet.name);
        if (reading.sheet !== null && !sheets.includes(reading.sheet)) throw fieldError("sheet", noSuchSheetMessage(reading.sheet));
        reading.onSheets?.(sheets);
      }
      if (found || worksheet.name !== (reading.sheet ?? sheets[0])) {
        await skip(worksheet);
        continue;
      }
      found = true;
      for await (const row of worksheet) {
        const cells = rowCells(row);
        if (cells.some((cell) => cell.trim() !== "")) yield cells.map(toSpreadsheetSafe);
      }
    }
    readToEnd = true;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fieldError("file_name", `${NOT_XLSX_MESSAGE}: ${(error as Error).message}`);
  } finally {
    // exceljs removes the temporary copy of a sheet (one that came before the shared strings) only as it moves past it.
    if (!readToEnd) await skipRest(worksheets).catch(() => undefined);
  }
  // A zip without a worksheet: a .docx, say, or any other archive renamed. Or worksheets the workbook
  // does not name (exceljs names a sheet from the workbook's relationships): said, so the file can be looked into.
  if (!found) {
    const why =
      seen.length === 0 ? "it holds no worksheet" : `its worksheets (${seen.join(", ")}) are not its tabs (${(sheets ?? []).join(", ")})`;
    throw fieldError("file_name", `${NOT_XLSX_MESSAGE}: ${why}`);
  }
}

/** A sheet left unread: its bytes read past without parsing, so exceljs can move on (and remove its temporary copy). */
async function skip(worksheet: SheetReader): Promise<void> {
  for await (const _ of worksheet.iterator);
}

async function skipRest(worksheets: AsyncIterator<SheetReader>): Promise<void> {
  for (let next = await worksheets.next(); !next.done; next = await worksheets.next()) await skip(next.value);
}

/** POST /api/import-issues refuses an .xlsx upload that is no workbook before any job exists (its first bytes suffice). */
export async function checkIsXlsx(input: Readable): Promise<void> {
  (await zipOnly(input)).destroy();
  input.destroy();
}

/**
 * The input, refused unless it begins as a zip archive: exceljs's reader waits forever on an
 * empty file and fails on others only after reading into them.
 */
async function zipOnly(input: Readable): Promise<Readable> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  if (first.done || !ZIP_SIGNATURE.equals(first.value.subarray(0, ZIP_SIGNATURE.length))) {
    input.destroy();
    throw fieldError("file_name", NOT_XLSX_MESSAGE);
  }
  return Readable.from(
    (async function* () {
      yield first.value;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })(),
  );
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
