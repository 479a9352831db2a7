import type { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { CSV_READING } from "../../../common/csvReading.js";
import { badRequest } from "../../errors.js";

/**
 * The most bytes one record may hold: a requirement's longest description (100,000 characters, up
 * to 4 bytes each) with room to spare. An unclosed quote makes the rest of a file one record; without
 * a bound the parser kept buffering it (29 s and a stalled event loop for 30 MB).
 */
export const MAX_RECORD_BYTES = 1_000_000;

/**
 * The records of a CSV file as Jira, Excel and Google Sheets write it, one at a time: UTF-8 with
 * or without BOM, CRLF or LF, quoted cells holding commas, quotes and line breaks, rows of
 * uneven length, read as the import dialog reads them (CSV_READING: blank lines and rows of empty
 * cells skipped). The first record is the header.
 * A record longer than MAX_RECORD_BYTES refuses the file (400, which fails an import job with it).
 */
export async function* csvRecords(input: Readable): AsyncIterable<string[]> {
  const records = input.pipe(parse({ ...CSV_READING, max_record_size: MAX_RECORD_BYTES }));
  try {
    yield* records;
  } catch (error) {
    if (!(error instanceof CsvError && error.code === "CSV_MAX_RECORD_SIZE")) throw error;
    const row = Number((error as CsvError & { records?: number }).records ?? 0) + 1;
    throw badRequest(`Row ${row}: the row is longer than 1 MB (is a quote left open?)`);
  }
}
