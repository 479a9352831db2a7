import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { mapHeaders } from "../../../common/csvHeaders.js";
import { csvRecords } from "./csvRecords.js";
import { hostComponentsOf, hostStatusesOf } from "../../../common/importHostLists.js";
import { buildRowRules, readRow } from "./importRows.js";

const fixture = (name: string) => new URL(`../../../test/fixtures/csv/${name}`, import.meta.url).pathname;

async function records(input: Readable): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const record of csvRecords(input)) rows.push(record);
  return rows;
}

const fromText = (text: string | Buffer) => records(Readable.from([text]));

describe("csvRecords", () => {
  it("drops the UTF-8 byte order mark and reads CRLF rows", async () => {
    expect(await fromText("\uFEFFName,ID\r\nA,1\r\n")).toEqual([
      ["Name", "ID"],
      ["A", "1"],
    ]);
  });

  it("keeps commas, doubled quotes and line breaks inside quoted cells", async () => {
    expect(await fromText('Name,Description\n"a, b","say ""hi""\nline two\r\nline three"\n')).toEqual([
      ["Name", "Description"],
      ["a, b", 'say "hi"\nline two\r\nline three'],
    ]);
  });

  it("skips empty lines and rows of empty cells, and reads rows of uneven length", async () => {
    expect(await fromText("Name,ID\n\nA\n,\nB,2,extra\n")).toEqual([["Name", "ID"], ["A"], ["B", "2", "extra"]]);
  });

  it("reads non-ASCII text split across chunks", async () => {
    const bytes = Buffer.from("Name\n注入速度 Überwachung ñandú\n");
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await records(Readable.from(chunks))).toEqual([["Name"], ["注入速度 Überwachung ñandú"]]);
  });

  it("reads Jira's export fixture: BOM, CRLF, repeated headers, quotes and newlines", async () => {
    const rows = await records(createReadStream(fixture("jira-export-valid.csv")));
    expect(rows).toHaveLength(8);
    const [header, first, second] = rows;
    expect(header?.[0]).toBe("Summary");
    expect(header?.filter((name) => name === "Component/s")).toHaveLength(2);
    expect(first?.[25]).toBe(
      "The operator shall be able to set the infusion rate in steps of 0.1 mL/h.\nValues outside 0.1–999 mL/h are rejected with an audible alert.",
    );
    expect(second?.[0]).toBe('Occlusion alarm within 30 s, "downstream"');
    expect(rows.every((row) => row.length === header?.length)).toBe(true);
  });
});

const attributes = [
  {
    attribute_id: 7,
    name: "Priority",
    type: "select" as const,
    options: [
      { attribute_option_id: 70, name: "High" },
      { attribute_option_id: 71, name: "Low" },
    ],
  },
  { attribute_id: 8, name: "Rationale", type: "string" as const, options: [] },
];

const headers = ["Name", "ID", "Description", "Component/s", "Component/s", "Status", "Priority", "Rationale", "Sprint", "Folder"];
const rules = (
  options: { additional?: string[]; assign?: boolean; leftOut?: ("components" | "status")[]; leaveOutUnknown?: boolean } = {},
) =>
  buildRowRules({
    mapping: mapHeaders(headers, attributes),
    prefix: "SYS",
    components: hostComponentsOf([
      { id: "100", name: "Dosing", lead: { accountId: "lead-1" } },
      { id: "101", name: "Alarms" },
    ]),
    statuses: hostStatusesOf([
      { statuses: [{ id: "1", name: "To Do" }] },
      {
        statuses: [
          { id: "1", name: "To Do" },
          { id: "3", name: "Done" },
        ],
      },
    ]),
    fields: attributes,
    additionalHeaders: options.additional ?? [],
    assignBasedOnComponent: options.assign ?? false,
    leftOutColumns: options.leftOut ?? [],
    leaveOutUnknownNames: options.leaveOutUnknown ?? false,
  });

describe("readRow", () => {
  it("turns a row into the requirement's values, matching names case-insensitively", () => {
    const reading = readRow(["  Braking  ", "BRK-1", "Stops", "dosing", "ALARMS", "done", "high", "Because", "S1"], rules());
    expect(reading).toEqual({
      row: {
        name: "Braking",
        displayId: "BRK-1",
        description: "Stops",
        statusId: "3",
        assignedTo: null,
        componentIds: ["100", "101"],
        attributes: { 7: "70", 8: "Because" },
        folderPath: [],
      },
      errors: [],
    });
  });

  it("reports every problem of the row", () => {
    const reading = readRow(["", "x".repeat(51), "", "Pumps", "", "Blocked", "Urgent", "r".repeat(1001)], rules());
    expect(reading.errors).toEqual([
      "Name is required",
      "ID: enter no more than 50 characters",
      'Component/s: "Pumps" is not a component of this project',
      'Status: "Blocked" is not a status of this project',
      'Priority: "Urgent" is not one of the field\'s options',
      "Rationale: enter no more than 1000 characters",
    ]);
  });

  it("leaves out component and status names the project lacks when asked to, keeping the known ones", () => {
    const reading = readRow(["Braking", "", "", "Pumps", "Alarms", "Blocked", "Urgent"], rules({ leaveOutUnknown: true }));
    expect(reading.errors).toEqual(['Priority: "Urgent" is not one of the field\'s options']);
    const accepted = readRow(["Braking", "", "", "Pumps", "Alarms", "Blocked"], rules({ leaveOutUnknown: true }));
    expect(accepted.row).toMatchObject({ componentIds: ["101"], statusId: null });
  });

  it("reads nothing of a left-out Component/s or Status column", () => {
    const reading = readRow(["Braking", "", "", "Dosing", "Pumps", "Done"], rules({ leftOut: ["components", "status"] }));
    expect(reading.row).toMatchObject({ componentIds: [], statusId: null });
  });

  it("refuses a row whose imported cells hold the NUL character, which the database cannot store", () => {
    expect(readRow(["Brak\u0000ing", "", "Stops"], rules()).errors).toEqual([
      "A cell contains the NUL character (U+0000), which cannot be stored",
    ]);
    expect(readRow(["Braking", "", "Stops", "", "", "", "", "Be\u0000cause"], rules()).errors).toHaveLength(1);
  });

  it("refuses an over-long name and description", () => {
    const reading = readRow(["n".repeat(256), "", "d".repeat(100_001)], rules());
    expect(reading.errors).toEqual(["Name: enter no more than 255 characters", "Description: enter no more than 100000 characters"]);
  });

  it("restores cells our export made spreadsheet-safe and leaves foreign formulas as text", () => {
    const reading = readRow(["'=SUM(A1)", "", "=HYPERLINK(x)"], rules());
    expect(reading.row?.name).toBe("=SUM(A1)");
    expect(reading.row?.description).toBe("=HYPERLINK(x)");
  });

  it("takes back the custom ID from an ID our export wrote with the type prefix", () => {
    expect(readRow(["A", "SYS-BRK-1"], rules()).row?.displayId).toBe("BRK-1");
    expect(readRow(["A", "sys-12"], rules()).row?.displayId).toBe("12");
    expect(readRow(["A", "SYS-"], rules()).row?.displayId).toBe("SYS-");
  });

  it("appends kept additional headers to the description", () => {
    const kept = rules({ additional: ["sprint"] });
    expect(readRow(["A", "", "Text", "", "", "", "", "", "Sprint 12"], kept).row?.description).toBe("Text\n\nSprint: Sprint 12");
    expect(readRow(["A", "", "", "", "", "", "", "", "Sprint 12"], kept).row?.description).toBe("Sprint: Sprint 12");
    expect(readRow(["A", "", "Text"], kept).row?.description).toBe("Text");
  });

  it("splits the folder path our export writes into folder names, trimmed", () => {
    const folderOf = (path: string) => readRow(["A", "", "", "", "", "", "", "", "", path], rules());
    expect(folderOf("Braking / Front axle ").row?.folderPath).toEqual(["Braking", "Front axle"]);
    expect(folderOf("Top").row?.folderPath).toEqual(["Top"]);
    expect(folderOf("  ").row?.folderPath).toEqual([]);
    expect(folderOf("A/B and C").row?.folderPath).toEqual(["A/B and C"]);
    expect(folderOf("'-1 / +2").row?.folderPath).toEqual(["-1", "+2"]);
  });

  it("refuses a folder path with a name the tree would not take", () => {
    const errorsOf = (path: string) => readRow(["A", "", "", "", "", "", "", "", "", path], rules()).errors;
    expect(errorsOf("Braking /  / Front")).toEqual(['Folder: "Braking /  / Front" has an empty folder name']);
    expect(errorsOf(" / Front")).toEqual(['Folder: " / Front" has an empty folder name']);
    expect(errorsOf(`Braking / ${"f".repeat(101)}`)).toEqual([`Folder: "${"f".repeat(101)}": Enter no more than 100 characters`]);
    expect(errorsOf("Braking\\Front")).toEqual(['Folder: "Braking\\Front": The name cannot contain a backslash (\\)']);
  });

  it("assigns the first component's assignee when asked to", () => {
    expect(readRow(["A", "", "", "Alarms", "Dosing"], rules({ assign: true })).row?.assignedTo).toBe("lead-1");
    expect(readRow(["A", "", "", "Alarms", "Dosing"], rules()).row?.assignedTo).toBeNull();
  });
});
