import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvRecords } from "./csvRecords.js";
import { type FileRowsEvent, type FileRowsSetup, readFileRows } from "./fileRows.js";

const setup = (overrides: Partial<FileRowsSetup> = {}): FileRowsSetup => ({
  prefix: "SYS",
  components: [{ id: "100", name: "Dosing", assigneeAccountId: null }],
  statuses: [{ id: "3", name: "Done" }],
  fields: [],
  additionalHeaders: [],
  assignBasedOnComponent: false,
  leftOutColumns: [],
  leaveOutUnknownNames: false,
  batchRows: 2,
  stopAtRefusedRow: false,
  ...overrides,
});

async function eventsOf(csv: string, options: Partial<FileRowsSetup> = {}): Promise<FileRowsEvent[]> {
  const events: FileRowsEvent[] = [];
  for await (const event of readFileRows(csvRecords(Readable.from([csv])), setup(options))) events.push(event);
  return events;
}

const rowNumbersOf = (events: FileRowsEvent[]) => events.flatMap((event) => (event.kind === "rows" ? event.rowNumbers : []));

describe("reading an import file's rows", () => {
  it("hands over accepted rows in batches with their spreadsheet row numbers, then every refusal once", async () => {
    const events = await eventsOf("Name,Status\nA,Done\n,Done\nB,done\nC,Blocked\nD,\n");
    expect(events.map((event) => event.kind)).toEqual(["rows", "rows", "end"]);
    expect(rowNumbersOf(events)).toEqual([2, 4, 6]);
    expect(events[0]).toMatchObject({ rows: [{ name: "A", statusId: "3" }, { name: "B", statusId: "3" }] });
    expect(events.at(-1)).toEqual({
      kind: "end",
      errors: [
        { row: 3, reason: "Name is required" },
        { row: 5, reason: 'Status: "Blocked" is not a status of this project' },
      ],
      errorCount: 2,
      stoppedAtRefusedRow: false,
    });
  });

  it("stops at the first refused row when writing, since writing stops there", async () => {
    const events = await eventsOf("Name\nA\n\nB\n,x\nC\n\nD\n", { stopAtRefusedRow: true, batchRows: 10 });
    expect(events).toEqual([{ kind: "end", errors: [{ row: 4, reason: "Name is required" }], errorCount: 1, stoppedAtRefusedRow: true }]);
  });

  it("refuses a file without a Name column, an empty file and a file of headers only", async () => {
    expect((await eventsOf("Title\nA\n", { stopAtRefusedRow: true })).at(-1)).toMatchObject({
      errors: [{ row: 1, reason: "The file has no Name column (Name or Summary)" }],
      stoppedAtRefusedRow: false,
    });
    expect(await eventsOf("", { stopAtRefusedRow: true })).toEqual([
      { kind: "end", errors: [{ row: 1, reason: "The file is empty" }], errorCount: 1, stoppedAtRefusedRow: false },
    ]);
    expect((await eventsOf("Summary\n")).at(-1)).toMatchObject({ errors: [{ row: 2, reason: "The file has no requirements to import" }] });
  });
});
