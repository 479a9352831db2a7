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
  ...overrides,
});

async function eventsOf(csv: string, options: Partial<FileRowsSetup> = {}): Promise<FileRowsEvent[]> {
  const events: FileRowsEvent[] = [];
  for await (const event of readFileRows(csvRecords(Readable.from([csv])), setup(options))) events.push(event);
  return events;
}

const rowNumbersOf = (events: FileRowsEvent[]) => events.flatMap((event) => (event.kind === "rows" ? event.rowNumbers : []));
const errorsOf = (events: FileRowsEvent[]) => events.flatMap((event) => event.errors);

describe("reading an import file's rows", () => {
  it("hands over accepted rows in batches with their spreadsheet row numbers, and every refusal with the batch it was read in", async () => {
    const events = await eventsOf("Name,Status\nA,Done\n,Done\nB,done\nC,Blocked\nD,\n");
    expect(events.map((event) => event.kind)).toEqual(["rows", "rows", "end"]);
    expect(rowNumbersOf(events)).toEqual([2, 4, 6]);
    expect(events[0]).toMatchObject({
      rows: [
        { name: "A", statusId: "3" },
        { name: "B", statusId: "3" },
      ],
    });
    expect(errorsOf(events)).toEqual([
      { row: 3, reason: "Name is required" },
      { row: 5, reason: 'Status: "Blocked" is not a status of this project' },
    ]);
  });

  it("reads on past refused rows, so every problem of every row is found in one pass", async () => {
    const errors = errorsOf(
      await eventsOf(["Name,Status", ...Array.from({ length: 1500 }, () => ",Blocked")].join("\n"), { batchRows: 500 }),
    );
    expect(errors).toHaveLength(3000);
    expect(errors.at(-1)).toEqual({ row: 1501, reason: 'Status: "Blocked" is not a status of this project' });
  });

  it("refuses a file without a Name column, an empty file and a file of headers only", async () => {
    expect(await eventsOf("Title\nA\n")).toEqual([
      { kind: "end", errors: [{ row: 1, reason: "The file has no Name column (Name or Summary)" }] },
    ]);
    expect(await eventsOf("")).toEqual([{ kind: "end", errors: [{ row: 1, reason: "The file is empty" }] }]);
    expect((await eventsOf("Summary\n")).at(-1)).toEqual({
      kind: "end",
      errors: [{ row: 2, reason: "The file has no requirements to import" }],
    });
  });
});
