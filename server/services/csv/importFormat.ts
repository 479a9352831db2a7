import type { Readable } from "node:stream";
import { isXlsxFileName } from "../../../common/schemas/csvImport.js";
import { csvRecords } from "./csvRecords.js";
import { type XlsxReading, xlsxRecords } from "./xlsxRecords.js";

/**
 * How an import file's records are read, by its kind: the mapping dialog's preview and the import
 * job take the records from here, so a CSV file and a sheet of an .xlsx go through one pipeline
 * (readFileRows and the job after it). `reading` chooses the .xlsx sheet to read; a CSV file has
 * none, and never tells `onSheets`.
 */
type ImportFormat = {
  records(input: Readable, reading: XlsxReading): AsyncIterable<string[]>;
};

const CSV: ImportFormat = { records: (input) => csvRecords(input) };

const XLSX: ImportFormat = { records: xlsxRecords };

/** The stored upload's name keeps the original's extension: ".xlsx" is a workbook, anything else CSV. */
export const importFormatOf = (uuidFileName: string): ImportFormat => (isXlsxFileName(uuidFileName) ? XLSX : CSV);
