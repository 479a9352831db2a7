import { mapHeaders } from "../../../common/csvHeaders.js";
import type { ImportRowError } from "../../../common/schemas/csvImport.js";
import { buildRowRules, type ImportedRow, type RowRules, readRow } from "./importRows.js";

/** What reading an import file's rows needs besides the file. */
export type FileRowsSetup = Omit<Parameters<typeof buildRowRules>[0], "mapping"> & {
  /** At most this many accepted rows, custom IDs or errors per `rows` event. */
  batchRows: number;
};

/**
 * A file's rows as the import takes them, in one pass: accepted rows in batches, each with its row
 * number as a spreadsheet shows it (the header is row 1), with every reason a row read since the
 * last batch was refused (all of a row's problems, in row order). The end names what refuses the
 * file as a whole (no Name column, no rows), if anything.
 */
export type FileRowsEvent =
  | {
      kind: "rows";
      rows: ImportedRow[];
      rowNumbers: number[];
      /** The custom ID of every row read since the last event, refused rows' too, for the duplicate check. */
      displayIds: CheckedDisplayId[];
      errors: ImportRowError[];
    }
  | { kind: "end"; errors: ImportRowError[] };

type CheckedDisplayId = { displayId: string; row: number };

export async function* readFileRows(records: AsyncIterable<string[]>, setup: FileRowsSetup): AsyncGenerator<FileRowsEvent> {
  const { batchRows, ...ruleInputs } = setup;
  let rules: RowRules | undefined;
  let batch = {
    rows: [] as ImportedRow[],
    rowNumbers: [] as number[],
    displayIds: [] as CheckedDisplayId[],
    errors: [] as ImportRowError[],
  };
  let rowNumber = 0;
  let refused = false;
  for await (const cells of records) {
    rowNumber += 1;
    if (!rules) {
      rules = buildRowRules({ ...ruleInputs, mapping: mapHeaders(cells, ruleInputs.fields) });
      if (rules.mapping.name !== undefined) continue;
      yield { kind: "end", errors: [{ row: rowNumber, reason: "The file has no Name column (Name or Summary)" }] };
      return;
    }
    const reading = readRow(cells, rules);
    for (const reason of reading.errors) batch.errors.push({ row: rowNumber, reason });
    refused ||= reading.errors.length > 0;
    const displayId = reading.row ? reading.row.displayId : reading.displayId;
    if (displayId !== null) batch.displayIds.push({ displayId, row: rowNumber });
    if (reading.row) {
      batch.rows.push(reading.row);
      batch.rowNumbers.push(rowNumber);
    }
    if (Math.max(batch.rows.length, batch.displayIds.length, batch.errors.length) >= batchRows) {
      yield { kind: "rows", ...batch };
      batch = { rows: [], rowNumbers: [], displayIds: [], errors: [] };
    }
  }
  if (batch.rows.length > 0 || batch.displayIds.length > 0 || batch.errors.length > 0) yield { kind: "rows", ...batch };
  if (!rules) yield { kind: "end", errors: [{ row: 1, reason: "The file is empty" }] };
  else if (rowNumber === 1 && !refused) yield { kind: "end", errors: [{ row: 2, reason: "The file has no requirements to import" }] };
  else yield { kind: "end", errors: [] };
}
