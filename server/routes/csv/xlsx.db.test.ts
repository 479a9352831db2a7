import { buffer } from "node:stream/consumers";
import { Readable } from "node:stream";
import { parse as parseCsv } from "csv-parse/sync";
import ExcelJS from "exceljs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { csvFixture, PUMP_COMPONENTS, PUMP_STATUSES, pumpHostClient, putImportFile } from "../../../test/helpers/csvImport.js";
import { CSV_UTF8, TO_CSV_UTF8, throughLibreOffice } from "../../../test/helpers/libreOffice.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { seedDefaultRequirementTypes } from "../../services/requirementTypes/seedDefaultRequirementTypes.js";
import { storageKey } from "../../storage/objectStorage.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let typeId: number;
let nextProject = 30000;

beforeAll(async () => {
  ctx = await createTestApp({ hostClient: pumpHostClient() }, { jobs: { work: true } });
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
  await seedDefaultRequirementTypes(ctx.deps, { tenantId: tenant.tenantId, accountId: "557058:test-user" });
  typeId = (await listRequirementTypes(ctx.deps.db, tenant.tenantId)).find((type) => type.prefix === "SYS")?.requirement_type_id ?? 0;
});
afterAll(() => ctx.destroy());

const post = (path: string, body: object) => request(ctx.app).post(path).set("Authorization", auth).send(body);

async function jobEnd(jobId: string) {
  let body: Record<string, unknown> = {};
  await vi.waitFor(
    async () => {
      body = (await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth)).body;
      expect(["finished", "failed"]).toContain(body.status);
    },
    { timeout: 60_000, interval: 200 },
  );
  return body;
}

const putXlsx = (bytes: Buffer) => putImportFile(ctx.deps, tenant.tenantId, bytes, "requirements.xlsx");

async function workbookOf(sheets: Record<string, string[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function importXlsx(projectId: number, bytes: Buffer, sheet?: string) {
  const res = await post("/api/import-issues", {
    file_name: await putXlsx(bytes),
    requirement_type: typeId,
    location: null,
    atlassian_project_id: projectId,
    atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
    atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
    ...(sheet ? { sheet } : {}),
  });
  expect(res.status).toBe(200);
  return jobEnd(res.body.job_id);
}

const unixLineEnds = (text: string) => text.replace(/\r\n?/g, "\n");

const namesIn = (projectId: number) =>
  ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: projectId }).orderBy("requirement_id").pluck("name");

const TWO_SHEETS = {
  Overview: [["Summary"], ["Not this one"]],
  Requirements: [
    ["Name", "ID", "Component/s", "Component/s", "Status"],
    ["Dose limits", "L-1", "Dosing", "Pumps", "Done"],
    ["Alarm log", "L-2", "Alarms", "", "Blocked"],
  ],
};

describe("POST /api/import-issues/preview", () => {
  it("lists a workbook's sheets and shows the chosen sheet's header row and its component and status values", async () => {
    const file = await putXlsx(await workbookOf(TWO_SHEETS));
    const first = await post("/api/import-issues/preview", { file_name: file });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      sheets: ["Overview", "Requirements"],
      sheet: "Overview",
      headers: ["Summary"],
      values: { components: [], status: [] },
    });
    const chosen = await post("/api/import-issues/preview", { file_name: file, sheet: "Requirements" });
    expect(chosen.body).toEqual({
      sheets: ["Overview", "Requirements"],
      sheet: "Requirements",
      headers: ["Name", "ID", "Component/s", "Component/s", "Status"],
      values: { components: ["Dosing", "Pumps", "Alarms"], status: ["Done", "Blocked"] },
    });
  });

  it("refuses a file that is not a workbook, a sheet it lacks, and another site's file, in the spec's format", async () => {
    const notXlsx = await putXlsx(Buffer.from("Name\nA\n"));
    expect(await post("/api/import-issues/preview", { file_name: notXlsx })).toMatchObject({
      status: 400,
      body: { file_name: ["The file is not an Excel workbook (.xlsx)"] },
    });
    const file = await putXlsx(await workbookOf(TWO_SHEETS));
    expect(await post("/api/import-issues/preview", { file_name: file, sheet: "Detail" })).toMatchObject({
      status: 400,
      body: { sheet: ['The workbook has no sheet named "Detail"'] },
    });
    const other = await createTenant(ctx.deps.db);
    const elsewhere = await putImportFile(ctx.deps, other.tenantId, await workbookOf(TWO_SHEETS), "theirs.xlsx");
    expect(await post("/api/import-issues/preview", { file_name: elsewhere })).toMatchObject({
      status: 400,
      body: { file_name: ["The file was not found. Upload it again."] },
    });
  });
});

describe("importing an .xlsx", () => {
  it("imports the chosen sheet through the import job, all rows or none", async () => {
    nextProject += 1;
    const refused = await importXlsx(nextProject, await workbookOf(TWO_SHEETS), "Requirements");
    expect(refused).toMatchObject({
      status: "failed",
      result: {
        imported: 0,
        errors: [
          { row: 2, reason: 'Component/s: "Pumps" is not a component of this project' },
          { row: 3, reason: 'Status: "Blocked" is not a status of this project' },
        ],
      },
    });
    expect(await namesIn(nextProject)).toEqual([]);
    const fixed = {
      ...TWO_SHEETS,
      Requirements: TWO_SHEETS.Requirements.map((row) => row.map((cell) => (cell === "Pumps" ? "" : cell === "Blocked" ? "Done" : cell))),
    };
    expect(await importXlsx(nextProject, await workbookOf(fixed), "Requirements")).toMatchObject({
      status: "finished",
      result: { imported: 2 },
    });
    expect(await namesIn(nextProject)).toEqual(["Dose limits", "Alarm log"]);
  });

  it("refuses an upload named .xlsx that is no workbook before any job, and fails the job of a sheet the workbook lacks", async () => {
    const notXlsx = await putXlsx(Buffer.from("Name\nA\n"));
    const res = await post("/api/import-issues", { file_name: notXlsx, requirement_type: typeId, atlassian_project_id: 30999 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ file_name: ["The file is not an Excel workbook (.xlsx)"] });
    expect(await importXlsx(30999, await workbookOf(TWO_SHEETS), "Detail")).toMatchObject({
      status: "failed",
      error: expect.stringContaining('The workbook has no sheet named "Detail"'),
    });
  });

  it("imports an .xlsx LibreOffice saved from a Jira CSV export as the CSV itself imports", async () => {
    const csv = csvFixture("jira-export-valid.csv");
    // Opened as a person opens it in Calc, "Quoted field as text" ticked: otherwise Calc makes its "=HYPERLINK(...)" cell a formula.
    const xlsx = await throughLibreOffice({ name: "jira-export-valid.csv", bytes: csv }, "xlsx", `${CSV_UTF8},,0,true`);
    nextProject += 1;
    const fromXlsx = nextProject;
    expect(await importXlsx(fromXlsx, xlsx)).toMatchObject({ status: "finished", result: { imported: 7, errors: [] } });
    nextProject += 1;
    const fromCsv = nextProject;
    const res = await post("/api/import-issues", {
      file_name: await putImportFile(ctx.deps, tenant.tenantId, csv),
      requirement_type: typeId,
      atlassian_project_id: fromCsv,
      atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
      atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
    });
    expect(await jobEnd(res.body.job_id)).toMatchObject({ status: "finished", result: { imported: 7 } });
    const requirements = async (projectId: number) =>
      (
        await ctx.deps
          .db("requirements")
          .where({ tenant_id: tenant.tenantId, project_id: projectId })
          .orderBy("requirement_id")
          .select("name", "display_id", "description", "status_id", "assigned_to")
      ).map((requirement) => ({ ...requirement, description: unixLineEnds(requirement.description) }));
    // A sheet's cell keeps its line breaks as LF (docs/decisions.md): the CSV's CRLF inside a cell is compared as LF.
    expect(await requirements(fromXlsx)).toEqual(await requirements(fromCsv));
  }, 180_000);
});

describe("POST /api/requirement/export/xlsx", () => {
  /** A project whose texts look like formulas, hold line breaks, quotes and any script. */
  async function projectWithTrickyTexts(): Promise<number> {
    nextProject += 1;
    const rows = [
      ["Name", "ID", "Description", "Component/s", "Component/s", "Status"],
      ['=HYPERLINK("http://example.invalid","click")', "F-1", 'a, "b"\nc', "Dosing", "Alarms", "Done"],
      ["Unicode 注入速度 Überwachung ñandú", "", "-5", "", "", ""],
      ["+1", "F-3", "@SUM(A1)", "", "", "To Do"],
    ];
    const imported = await importXlsx(nextProject, await workbookOf({ Sheet1: rows }));
    // The whole job on failure: its error says why (once failed in CI, not reproduced).
    expect(imported, JSON.stringify(imported)).toMatchObject({ status: "finished" });
    return nextProject;
  }

  async function exportedFile(projectId: number): Promise<Buffer> {
    const res = await post("/api/requirement/export/xlsx", { atlassian_project_id: projectId });
    expect(res.status).toBe(200);
    const end = await jobEnd(res.body.job_id);
    expect(end).toMatchObject({
      status: "finished",
      result: { original_file_name: expect.stringMatching(/^rmcloud-requirements-.*\.xlsx$/), total_rows: 3 },
    });
    const { file_name } = end.result as { file_name: string };
    const signed = await post("/api/sign-s3-get", { uuid_file_name: file_name, original_file_name: "export.xlsx" });
    expect(signed.status).toBe(200);
    return buffer(await ctx.deps.storage.getObject(storageKey(tenant.tenantId, "exports", file_name)));
  }

  /** The CSV export's rows, each cell's exact text. */
  async function csvExportRows(projectId: number): Promise<string[][]> {
    const res = await request(ctx.app).get("/api/requirement/export").query({ atlassian_project_id: projectId }).set("Authorization", auth);
    return (parseCsv(res.text, { bom: true }) as string[][]).map((row) => row.map(fromSpreadsheetSafe));
  }

  it("writes the CSV export's rows as text cells below a frozen header row with filters", async () => {
    const projectId = await projectWithTrickyTexts();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from([await exportedFile(projectId)]));
    const [sheet] = workbook.worksheets;
    expect(sheet?.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    // ID, Name, Description, Type, Status, Assignee, two Component/s, Linked issues, Linked requirements, Folder, Suspect links.
    expect(sheet?.autoFilter).toEqual("A1:L1");
    const rows: string[][] = [];
    sheet?.eachRow((row) =>
      rows.push(
        (row.values as ExcelJS.CellValue[]).slice(1).map((value) => (value === null || value === undefined ? "" : (value as string))),
      ),
    );
    const expected = await csvExportRows(projectId);
    expect(rows.map((row) => [...row, ...Array(expected[0]?.length ?? 0).fill("")].slice(0, expected[0]?.length))).toEqual(expected);
    expect(sheet?.getCell("B2").type).toBe(ExcelJS.ValueType.String);
  });

  it("opens in LibreOffice with the same rows, formula-looking texts shown as written", async () => {
    const projectId = await projectWithTrickyTexts();
    const converted = await throughLibreOffice({ name: "export.xlsx", bytes: await exportedFile(projectId) }, TO_CSV_UTF8);
    const rows = parseCsv(converted, { bom: true, relax_column_count: true }) as string[][];
    expect(rows).toEqual(await csvExportRows(projectId));
    expect(rows[1]?.[1]).toBe('=HYPERLINK("http://example.invalid","click")');
  }, 180_000);
});
