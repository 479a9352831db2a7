import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvRecords } from "../../../server/services/csv/csvRecords.js";
import { csvColumnValues, csvFileHeaders } from "./csvFileHeaders.js";

/** The header row and the first data row the import job reads from the same file. */
async function readByTheJob(content: string): Promise<string[][]> {
  const records: string[][] = [];
  for await (const record of csvRecords(Readable.from([content]))) records.push(record);
  return records.slice(0, 2);
}

describe("the import dialog and the import job read a file alike", () => {
  it.each([
    ["a blank first line", "\nSummary,Component/s\nDose limit,Pump\n"],
    ["a first row of empty cells", ",,\r\nSummary,Component/s\r\nDose limit,Pump\r\n"],
    ["a BOM", "\uFEFFSummary,Component/s\nDose limit,Pump\n"],
  ])("with %s: the same header and the same values", async (_name, content) => {
    const [header, first] = await readByTheJob(content);
    expect(header).toEqual(["Summary", "Component/s"]);
    expect(await csvFileHeaders(new Blob([content]))).toEqual(header);
    expect(await csvColumnValues(new Blob([content]), { components: [1] })).toEqual({ components: [first?.[1]] });
  });
});
