import { mapHeaders } from "../../../common/csvHeaders.js";
import { type ImportRowError, MAX_REPORTED_ROW_ERRORS } from "../../../common/schemas/csvImport.js";
import { buildRowRules, type ImportedRow, type RowRules, readRow } from "./importRows.js";

/** What reading an import file's rows needs besides the file. */
export type FileRowsSetup = Omit<Parameters<typeof buildRowRules>[0], "mapping"> & {
  /** Accepted rows per `rows` event. */
  batchRows: number;
  /** Reading ends at the first refused row: the writing pass stops there anyway. */
  stopAtRefusedRow: boolean;
};

/**
 * A file's rows as the import takes them: accepted rows in batches, each with its row number as a
 * spreadsheet shows it (the header is row 1), then once at the end every reason a row or the
 * whole file was refused, the first MAX_REPORTED_ROW_ERRORS listed in row order and all counted.
 * `stoppedAtRefusedRow`: reading ended early (stopAtRefusedRow), so later rows were not checked.
 */
export type FileRowsEvent =
  | {
      kind: "rows";
      rows: ImportedRow[];
      rowNumbers: number[];
      /** The custom ID of every row read since the last event, refused rows' too, for the duplicate check. */
      displayIds: CheckedDisplayId[];
    }
  | { kind: "end"; errors: ImportRowError[]; errorCount: number; stoppedAtRefusedRow: boolean };

type CheckedDisplayId = { displayId: string; row: number };

export async function* readFileRows(records: AsyncIterable<string[]>, setup: FileRowsSetup): AsyncGenerator<FileRowsEvent> {
  const { batchRows, stopAtRefusedRow, ...ruleInputs } = setup;
  const errors = new RowErrors();
  let rules: RowRules | undefined;
  let rows: ImportedRow[] = [];
  let rowNumbers: number[] = [];
  let displayIds: CheckedDisplayId[] = [];
  let rowNumber = 0;
  let stoppedAtRefusedRow = false;
  for await (const cells of records) {
    rowNumber += 1;
    if (!rules) {
      rules = buildRowRules({ ...ruleInputs, mapping: mapHeaders(cells, ruleInputs.fields) });
      if (rules.mapping.name !== undefined) continue;
      errors.add(rowNumber, "The file has no Name column (Name or Summary)");
      break;
    }
    const reading = readRow(cells, rules);
    for (const reason of reading.errors) errors.add(rowNumber, reason);
    const displayId = reading.row ? reading.row.displayId : reading.displayId;
    if (displayId !== null) displayIds.push({ displayId, row: rowNumber });
    if (!reading.row) {
      if (stopAtRefusedRow) {
        // Nothing of the file will be kept: the rows read since the last batch need no writing either.
        rows = [];
        displayIds = [];
        stoppedAtRefusedRow = true;
        break;
      }
    } else {
      rows.push(reading.row);
      rowNumbers.push(rowNumber);
    }
    if (rows.length === batchRows || displayIds.length === batchRows) {
      yield { kind: "rows", rows, rowNumbers, displayIds };
      rows = [];
      rowNumbers = [];
      displayIds = [];
    }
  }
  if (rows.length > 0 || displayIds.length > 0) yield { kind: "rows", rows, rowNumbers, displayIds };
  if (!rules) errors.add(1, "The file is empty");
  else if (rowNumber === 1 && errors.count === 0) errors.add(2, "The file has no requirements to import");
  yield { kind: "end", ...errors.summary(), stoppedAtRefusedRow };
}

/** Row errors in row order, the first MAX_REPORTED_ROW_ERRORS of them listed, all of them counted. */
export class RowErrors {
  private listed: ImportRowError[] = [];
  count = 0;

  add(row: number, reason: string): void {
    this.count += 1;
    if (this.listed.length < MAX_REPORTED_ROW_ERRORS) this.listed.push({ row, reason });
  }

  /** Errors found apart from these (`listed` in row order, the first of `count`), kept in row order with them. */
  merge(listed: ImportRowError[], count: number): void {
    this.count += count;
    this.listed = [...this.listed, ...listed].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ROW_ERRORS);
  }

  summary(): { errors: ImportRowError[]; errorCount: number } {
    return { errors: [...this.listed].sort((a, b) => a.row - b.row), errorCount: this.count };
  }
}
