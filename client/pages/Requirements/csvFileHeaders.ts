import { parse } from "csv-parse/browser/esm/sync";

/** Enough of the file for any real header row, without reading a large file whole. */
const HEAD_BYTES = 256 * 1024;

/** The header row of a CSV file (BOM dropped, quoted names read), or [] when there is none. */
export async function csvFileHeaders(file: Blob): Promise<string[]> {
  const head = await file.slice(0, HEAD_BYTES).text();
  try {
    const [first] = parse(head, { bom: true, to_line: 1, relax_column_count: true, relax_quotes: true }) as string[][];
    return first ?? [];
  } catch {
    return [];
  }
}
