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
