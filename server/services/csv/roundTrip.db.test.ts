import { PassThrough } from "node:stream";
import { buffer } from "node:stream/consumers";
import { parse as parseCsv } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_HEADERS, FOLDER_PATH_SEPARATOR, fromSpreadsheetSafe, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { folderNameSchema } from "../../../common/schemas/folder.js";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { CSV_UTF8, TO_CSV_UTF8, throughLibreOffice } from "../../../test/helpers/libreOffice.js";
import { PUMP_COMPONENTS, PUMP_STATUSES, pumpHostClient, putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { createAttribute } from "../attributes/createAttribute.js";
import type { Actor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { addLinks } from "../../db/requirements/index.js";
import { EXPORT_CSV_OPTIONS, exportRequirementRows } from "./exportRequirements.js";
import { writeXlsx } from "./xlsxExport.js";
import { runImport } from "./importRequirements.js";

let ctx: TestContext;
let actor: Actor;
let typeId: number;
let nextProject = 20000;
const OPTIONS = ["High", "Low", 'Ümlaut, "quoted"'];

beforeAll(async () => {
  ctx = await createTestApp({ hostClient: pumpHostClient() });
  const tenant = await createTenant(ctx.deps.db);
  actor = { tenantId: tenant.tenantId, accountId: "557058:test-user" };
  await seedDefaultRequirementTypes(ctx.deps, actor);
  typeId = (await listRequirementTypes(ctx.deps.db, tenant.tenantId)).find((type) => type.prefix === "SYS")?.requirement_type_id ?? 0;
});
afterAll(() => ctx.destroy());

/** A project of its own with the two custom fields every generated table carries. */
async function newProject(): Promise<number> {
  nextProject += 1;
  await createAttribute(ctx.deps, actor, {
    name: "Priority",
    project: nextProject,
    type: "select",
    options: OPTIONS.map((name) => ({ name })),
  });
  await createAttribute(ctx.deps, actor, { name: "Rationale", project: nextProject, type: "string", options: [] });
  return nextProject;
}

async function importCsv(projectId: number, csv: string | Buffer, fileName = "requirements.csv") {
  const file = await putImportFile(ctx.deps, actor.tenantId, csv, fileName);
  return runImport(
    ctx.deps,
    actor,
    ImportRequestSchema.parse({
      file_name: file,
      requirement_type: typeId,
      location: null,
      atlassian_project_id: projectId,
      atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
      atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
    }),
  );
}

async function exportCsv(projectId: number): Promise<string> {
  const rows: string[][] = [];
  for await (const row of exportRequirementRows(ctx.deps, actor, projectId)) rows.push(row);
  return stringify(rows, EXPORT_CSV_OPTIONS);
}

/**
 * The rows as any RFC 4180 reader takes them (Python's csv module, spreadsheets): a CR, LF or CRLF
 * outside quotes ends the record, and every record has the header's width.
 */
const rowsOf = (csv: string): string[][] => parseCsv(csv, { bom: true, relax_column_count: false, record_delimiter: ["\r\n", "\n", "\r"] });

/** Text the way people write it, and the way that breaks CSV writers: quotes, commas, line breaks, formulas, any script. */
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', ",", "\n", "\r\n", "\r", "'", "=", "+", "-", "@", "\t", " ", ";", "注", "Ü", "ñ", "😀"),
    fc.string({ minLength: 1, maxLength: 3 }),
  ),
  maxLength: 40,
});

/**
 * Folder names as the tree takes them, each path one to three deep. A name with " / " inside, or
 * ending in " /" above another folder, does not split back the way it was joined (docs/decisions.md).
 */
const folderName = fc.oneof(
  fc.constantFrom("Braking", "Front axle", "=SUM(A1)", 'Ümlaut, "quoted"'),
  tricky
    .map((name) => name.trim())
    .filter((name) => folderNameSchema.safeParse(name).success && !name.includes(" / ") && !name.endsWith(" /")),
);
const folderPath = fc.oneof(fc.constant([]), fc.array(folderName, { minLength: 1, maxLength: 3 }));

type TableRow = {
  name: string;
  id: string;
  description: string;
  components: string[];
  status: string;
  priority: string;
  rationale: string;
  folder: readonly string[];
};

const table: fc.Arbitrary<TableRow[]> = fc.uniqueArray(
  fc.record({
    name: tricky.filter((name) => name.trim() !== "" && name.trim().length <= 255),
    id: fc.option(fc.stringMatching(/^[A-Z][A-Za-z0-9-]{0,10}$/), { nil: "" }),
    description: tricky,
    components: fc.subarray(PUMP_COMPONENTS.map((component) => component.name)),
    status: fc.constantFrom("", ...PUMP_STATUSES.map((status) => status.name)),
    priority: fc.constantFrom("", ...OPTIONS),
    rationale: tricky,
    folder: folderPath,
  }),
  { minLength: 1, maxLength: 6, selector: (row) => row.id || Symbol() },
);

/** A generated table as a CSV file to import. */
function csvOf(generated: TableRow[]): string {
  const width = Math.max(1, ...generated.map((row) => row.components.length));
  const header = ["Name", "ID", "Description", ...Array(width).fill("Component/s"), "Status", "Priority", "Rationale", "Folder"];
  const body = generated.map((row) => [
    row.name,
    row.id,
    row.description,
    ...Array.from({ length: width }, (_, index) => row.components[index] ?? ""),
    row.status,
    row.priority,
    row.rationale,
    // Written as our export writes it, so the file means the generated names (a name may begin with ' and a tab).
    toSpreadsheetSafe(row.folder.join(FOLDER_PATH_SEPARATOR)),
  ]);
  return stringify([header, ...body]);
}

describe("CSV round trip", () => {
  it("export → import into an empty project → export gives the same rows and folder tree", async () => {
    await fc.assert(
      fc.asyncProperty(table, async (generated) => {
        const source = await newProject();
        expect((await importCsv(source, csvOf(generated))).errors).toEqual([]);
        const first = await exportCsv(source);
        const folderCells = (csv: string) => {
          const [head = [], ...rows] = rowsOf(csv);
          const folder = head.indexOf(EXPORT_HEADERS.folder);
          return rows.map((row) => fromSpreadsheetSafe(row[folder] ?? ""));
        };
        expect(folderCells(first)).toEqual(generated.map((row) => row.folder.join(FOLDER_PATH_SEPARATOR)));

        const target = await newProject();
        const again = await importCsv(target, first);
        expect(again.errors).toEqual([]);
        expect(again.imported).toBe(generated.length);
        expect(rowsOf(await exportCsv(target))).toEqual(rowsOf(first));
      }),
      { numRuns: 12 },
    );
  });
});

/** Our export of a project whose requirements hold line breaks in every kind of cell: text, links, custom fields. */
async function exportWithLineBreaks(): Promise<{ projectId: number; csv: string }> {
  const projectId = await newProject();
  const csv = stringify([
    ["Name", "ID", "Description", "Rationale"],
    ["Dose limits", "L-1", "Soft limit warns.\nHard limit refuses.", "Line one\r\nLine two"],
    ["Alarm log", "L-2", "Notes\r=1+1", "=2+2\n@SUM(A1)"],
    ["Traceability", "L-3", "", ""],
  ]);
  expect((await importCsv(projectId, csv)).errors).toEqual([]);
  const ids = await ctx.deps
    .db("requirements")
    .where({ tenant_id: actor.tenantId, project_id: projectId })
    .orderBy("requirement_id")
    .pluck("requirement_id");
  await addLinks(ctx.deps.db, actor.tenantId, Number(ids[2]), [Number(ids[0]), Number(ids[1])]);
  return { projectId, csv: await exportCsv(projectId) };
}

async function exportXlsx(projectId: number): Promise<Buffer> {
  const out = new PassThrough();
  const bytes = buffer(out);
  await writeXlsx(exportRequirementRows(ctx.deps, actor, projectId), out);
  return bytes;
}

/** Every cell's exact text; a carriage return as a sheet's cell keeps it, a line feed (docs/decisions.md). */
const sheetTexts = (csv: string) => rowsOf(csv).map((row) => row.map((cell) => fromSpreadsheetSafe(cell).replace(/\r\n?/g, "\n")));

describe("xlsx round trip", () => {
  it("export as .xlsx → import into an empty project gives the same requirements, fields and folder tree", async () => {
    await fc.assert(
      fc.asyncProperty(table, async (generated) => {
        const source = await newProject();
        expect((await importCsv(source, csvOf(generated))).errors).toEqual([]);

        const target = await newProject();
        const again = await importCsv(target, await exportXlsx(source), "requirements.xlsx");
        expect(again.errors).toEqual([]);
        expect(again.imported).toBe(generated.length);
        expect(sheetTexts(await exportCsv(target))).toEqual(sheetTexts(await exportCsv(source)));
      }),
      { numRuns: 12 },
    );
  });
});

describe("the exported file's records", () => {
  it("keeps each requirement in one record of the header's width when its cells hold line breaks", async () => {
    const { csv } = await exportWithLineBreaks();

    const rows = rowsOf(csv);
    expect(rows).toHaveLength(4);
    const [header, ...body] = rows;
    const cell = (row: string[] | undefined, name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(body.map((row) => cell(row, "Description"))).toEqual(["Soft limit warns.\nHard limit refuses.", "Notes\r=1+1", ""]);
    expect(body.map((row) => cell(row, "Rationale"))).toEqual(["Line one\r\nLine two", "'=2+2\n@SUM(A1)", ""]);
    expect(cell(body[2], "Linked requirements")?.split("\n")).toEqual(["SYS-L-1: Dose limits", "SYS-L-2: Alarm log"]);
  });
});

/** The file as LibreOffice Calc opens it (comma-separated, UTF-8) and saves it again as CSV. */
const csvThroughLibreOffice = async (csv: string) =>
  (await throughLibreOffice({ name: "export.csv", bytes: csv }, TO_CSV_UTF8, CSV_UTF8)).toString("utf8");

describe("the exported file in LibreOffice", () => {
  it("opens with the same rows and columns, formulas shown as text", async () => {
    const projectId = await newProject();
    const csv = stringify([
      ["Name", "ID", "Description", "Component/s", "Component/s", "Status", "Priority", "Rationale"],
      ['=HYPERLINK("http://example.invalid","click")', "F-1", 'a, "b"\nc', "Dosing", "Alarms", "Done", 'Ümlaut, "quoted"', "+1"],
      ["Unicode 注入速度 Überwachung ñandú", "", "-5", "", "", "", "", "@sum"],
    ]);
    expect((await importCsv(projectId, csv)).errors).toEqual([]);
    const exported = await exportCsv(projectId);
    const converted = rowsOf(await csvThroughLibreOffice(exported));
    expect(converted).toEqual(rowsOf(exported));
    expect(converted[1]?.[1]).toBe('\'=HYPERLINK("http://example.invalid","click")');
  }, 180_000);

  it("opens multi-line cells as one cell each, a formula on a later line of a cell shown as text", async () => {
    const { csv } = await exportWithLineBreaks();

    const converted = rowsOf(await csvThroughLibreOffice(csv));
    expect(converted).toHaveLength(4);
    const header = converted[0] ?? [];
    const alarmLog = converted.find((row) => row[header.indexOf("Name")] === "Alarm log");
    expect(alarmLog?.[header.indexOf("Rationale")]).toBe("'=2+2\n@SUM(A1)");
    expect(converted.find((row) => row[header.indexOf("Name")] === "Traceability")?.[header.indexOf("Linked requirements")]).toBe(
      "SYS-L-1: Dose limits\nSYS-L-2: Alarm log",
    );
  }, 180_000);
});
