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
  const records = input.pipe(
    parse({ ...CSV_READING, max_record_size: MAX_RECORD_BYTES }),
  );
  try {
    yield* records;
  } catch (error) {
    if (!(error instanceof CsvError && error.code === "CSV_MAX_RECORD_SIZE")) throw error;
    const row = Number((error as CsvError & { records?: number }).records ?? 0) + 1;
    throw badRequest(`Row ${row}: the row is longer than 1 MB (is a quote left open?)`);
  }
}

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
/** Bytes that leave a record empty for csvRecords (a record of empty cells, whitespace between them): comma, carriage return, space, tab. */
const EMPTY_BYTES = new Set([0x2c, 0x0d, 0x20, 0x09]);

/**
 * How many records csvRecords will give, header included, from the bytes alone: line feeds
 * outside quotes ending a line with some content. Far cheaper than parsing; for progress totals.
 */
export async function countRecords(input: Readable): Promise<number> {
  let records = 0;
  let quoted = false;
  let content = false;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let index = 0; index < bytes.length; index += 1) {
      const byte = bytes[index] as number;
      if (byte === QUOTE) {
        quoted = !quoted;
      } else if (byte === LINE_FEED && !quoted) {
        if (content) records += 1;
        content = false;
      } else if (!content && !EMPTY_BYTES.has(byte)) {
        content = true;
      }
    }
  }
  return content ? records + 1 : records;
}
