import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromSpreadsheetSafe, mapHeaders, toSpreadsheetSafe } from "./csvHeaders.js";

const fields = [
  { attribute_id: 7, name: "Priority" },
  { attribute_id: 9, name: "Business Value" },
];

describe("mapHeaders", () => {
  it("maps the spec's headers whatever their case and spacing", () => {
    const mapping = mapHeaders([" name ", "ID", "DESCRIPTION", "Component/s", "status", "priority"], fields);
    expect(mapping).toEqual({
      name: 0,
      id: 1,
      description: 2,
      status: 4,
      components: [3],
      attributes: [{ attribute_id: 7, column: 5 }],
      additional: [],
    });
  });

  it("reads Jira's export: Summary is the name, Issue key the ID, every Component/s column counts", () => {
    const headers = ["Summary", "Issue key", "Issue id", "Component/s", "Component/s", "Sprint", "Sprint", "Custom field (Business Value)"];
    const mapping = mapHeaders(headers, fields);
    expect(mapping.name).toBe(0);
    expect(mapping.id).toBe(1);
    expect(mapping.components).toEqual([3, 4]);
    expect(mapping.attributes).toEqual([{ attribute_id: 9, column: 7 }]);
    expect(mapping.additional).toEqual([
      { header: "Issue id", columns: [2] },
      { header: "Sprint", columns: [5, 6] },
    ]);
  });

  it("prefers Name over Summary and offers the other as an additional header", () => {
    const mapping = mapHeaders(["Summary", "Name", "Name"], []);
    expect(mapping.name).toBe(1);
    expect(mapping.additional).toEqual([{ header: "Summary", columns: [0] }]);
  });

  it("reads the Folder column our export writes, whatever its case", () => {
    expect(mapHeaders(["ID", "Name", "Type", "Assignee", "Linked issues", "Priority", "Folder"], fields)).toMatchObject({
      folder: 6,
      additional: [
        { header: "Type", columns: [2] },
        { header: "Assignee", columns: [3] },
        { header: "Linked issues", columns: [4] },
      ],
    });
    expect(mapHeaders(["Name", " FOLDER "], []).folder).toBe(1);
    expect(mapHeaders(["Name"], []).folder).toBeUndefined();
  });

  it("has no name column when neither Name nor Summary is there", () => {
    expect(mapHeaders(["Title", "ID"], []).name).toBeUndefined();
  });
});

describe("spreadsheet-safe cells (OWASP CSV injection)", () => {
  it.each([
    ["=1+2", "'=1+2"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["'=quoted", "''=quoted"],
    ["plain", "plain"],
    ["'plain", "'plain"],
    ["", ""],
  ])("%j is written as %j", (text, written) => {
    expect(toSpreadsheetSafe(text)).toBe(written);
    expect(fromSpreadsheetSafe(written)).toBe(text);
  });

  it("reads back every text exactly", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "'", "a", " ") }), (text) => {
        expect(fromSpreadsheetSafe(toSpreadsheetSafe(text))).toBe(text);
      }),
    );
  });

  it("never writes a cell a spreadsheet would take for a formula", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(/^[=+\-@\t\r]/.test(toSpreadsheetSafe(text))).toBe(false);
      }),
    );
  });
});
