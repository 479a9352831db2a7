import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse as parseCsv } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOLDER_PATH_SEPARATOR, fromSpreadsheetSafe, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { folderNameSchema } from "../../../common/schemas/folder.js";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { PUMP_COMPONENTS, PUMP_STATUSES, pumpHostClient, putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { createAttribute } from "../attributes/createAttribute.js";
import type { Actor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { exportRequirementRows } from "./exportRequirements.js";
import { runImport } from "./importRequirements.js";

let ctx: TestContext;
let actor: Actor;
let typeId: number;
let nextProject = 20000;
const OPTIONS = ["High", "Low", "Ümlaut, \"quoted\""];

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
  await createAttribute(ctx.deps, actor, { name: "Priority", project: nextProject, type: "select", options: OPTIONS.map((name) => ({ name })) });
  await createAttribute(ctx.deps, actor, { name: "Rationale", project: nextProject, type: "string", options: [] });
  return nextProject;
}

async function importCsv(projectId: number, csv: string) {
  const file = await putImportFile(ctx.deps, actor.tenantId, csv);
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
  return stringify(rows, { bom: true, record_delimiter: "windows" });
}

const rowsOf = (csv: string): string[][] => parseCsv(csv, { bom: true, relax_column_count: true });

/** Text the way people write it, and the way that breaks CSV writers: quotes, commas, line breaks, formulas, any script. */
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', ",", "\n", "\r\n", "'", "=", "+", "-", "@", "\t", " ", ";", "注", "Ü", "ñ", "😀"),
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

const table = fc.uniqueArray(
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

describe("CSV round trip", () => {
  it("export → import into an empty project → export gives the same rows and folder tree", async () => {
    await fc.assert(
      fc.asyncProperty(table, async (generated) => {
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
        const source = await newProject();
        expect((await importCsv(source, stringify([header, ...body]))).errors).toEqual([]);
        const first = await exportCsv(source);
        const folderCells = (csv: string) => rowsOf(csv).slice(1).map((row) => fromSpreadsheetSafe(row.at(-1) ?? ""));
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

const soffice = ["/usr/bin/soffice", "/usr/bin/libreoffice"].find((candidate) => existsSync(candidate));

describe("the exported file in LibreOffice", () => {
  it.runIf(soffice)("opens with the same rows and columns, formulas shown as text", async () => {
    const projectId = await newProject();
    const csv = stringify([
      ["Name", "ID", "Description", "Component/s", "Component/s", "Status", "Priority", "Rationale"],
      ["=HYPERLINK(\"http://example.invalid\",\"click\")", "F-1", "a, \"b\"\nc", "Dosing", "Alarms", "Done", "Ümlaut, \"quoted\"", "+1"],
      ["Unicode 注入速度 Überwachung ñandú", "", "-5", "", "", "", "", "@sum"],
    ]);
    expect((await importCsv(projectId, csv)).errors).toEqual([]);
    const exported = await exportCsv(projectId);
    const dir = await mkdtemp(path.join(tmpdir(), "rmcloud-soffice-"));
    try {
      await writeFile(path.join(dir, "export.csv"), exported);
      await promisify(execFile)(
        soffice as string,
        [
          "--headless",
          `-env:UserInstallation=file://${path.join(dir, "profile")}`,
          "--infilter=CSV:44,34,76,1",
          "--convert-to",
          "csv:Text - txt - csv (StarCalc):44,34,76,1",
          "--outdir",
          path.join(dir, "out"),
          path.join(dir, "export.csv"),
        ],
        { timeout: 120_000 },
      );
      const converted = rowsOf(await readFile(path.join(dir, "out", "export.csv"), "utf8"));
      expect(converted).toEqual(rowsOf(exported));
      expect(converted[1]?.[1]).toBe("'=HYPERLINK(\"http://example.invalid\",\"click\")");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
