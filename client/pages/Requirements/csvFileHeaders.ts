import { parse } from "csv-parse/browser/esm/sync";
import { CSV_READING } from "../../../common/csvReading.js";

/** Enough of the file for any real header row, without reading a large file whole. */
const HEAD_BYTES = 256 * 1024;

/** The header row of a CSV file as the import job reads it (CSV_READING), or [] when there is none. */
export async function csvFileHeaders(file: Blob): Promise<string[]> {
  const head = await file.slice(0, HEAD_BYTES).text();
  try {
    const [first] = parse(head, { ...CSV_READING, to: 1 }) as string[][];
    return first ?? [];
  } catch {
    return [];
  }
}

/**
 * The distinct values of each group of columns over the whole file (cells trimmed, empty ones
 * skipped), read as the file streams rather than whole: the dialog names the component and status
 * values the project lacks before anything is uploaded. A file the reader cannot parse gives what
 * was read up to the fault (the import then reports the file's rows).
 */
export async function csvColumnValues<Group extends string>(
  file: Blob,
  columns: Record<Group, readonly number[]>,
): Promise<Record<Group, string[]>> {
  const groups = Object.entries(columns) as [Group, readonly number[]][];
  const values = new Map(groups.map(([group]) => [group, new Set<string>()]));
  const result = () => Object.fromEntries([...values].map(([group, set]) => [group, [...set]])) as Record<Group, string[]>;
  if (groups.every(([, indexes]) => indexes.length === 0)) return result();
  // The streaming reader is loaded only when a file is chosen: the dialog's own code stays small.
  const { parse } = await import("csv-parse/browser/esm");
  const parser = parse({ ...CSV_READING, from: 2 });
  parser.on("data", (record: string[]) => {
    for (const [group, indexes] of groups) {
      for (const index of indexes) {
        const value = record[index]?.trim();
        if (value) values.get(group)?.add(value);
      }
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on("end", resolve);
    parser.on("error", reject);
  });
  // Awaited below; a fault while writing must not count as unhandled meanwhile.
  ended.catch(() => undefined);
  try {
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!parser.write(value)) await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), ended]);
    }
    parser.end();
    await ended;
  } catch {
    // Reported by the import itself.
  }
  return result();
}
