import type { Readable } from "node:stream";
import { parse } from "csv-parse";

/**
 * The records of a CSV file as Jira, Excel and Google Sheets write it, one at a time: UTF-8 with
 * or without BOM, CRLF or LF, quoted cells holding commas, quotes and line breaks, rows of
 * uneven length. Blank lines and rows of empty cells are skipped. The first record is the header.
 */
export function csvRecords(input: Readable): AsyncIterable<string[]> {
  return input.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    }),
  );
}

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
/** Bytes that leave a record empty for csvRecords (it trims cells): comma, carriage return, space, tab. */
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
