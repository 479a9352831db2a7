import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ImportRequest } from "../../../common/schemas/csvImport.js";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { csvFixture, PUMP_COMPONENTS, PUMP_STATUSES, putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { AppError } from "../../errors.js";
import { createAttribute } from "../attributes/createAttribute.js";
import type { Actor } from "../context.js";
import { filledFields, loadRequirementDetails, snapshotOf } from "../requirements/requirementViews.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { runImport } from "./importRequirements.js";
import { parse } from "csv-parse/sync";
import { storageKey } from "../../storage/objectStorage.js";
import { signDownload } from "../storage/signDownload.js";
import { snapshotFromStored } from "../../db/requirements/index.js";

const PROJECT = 10000;
let ctx: TestContext;
let actor: Actor;
let other: Actor;
let systemTypeId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  const tenant = await createTenant(ctx.deps.db);
  const otherTenant = await createTenant(ctx.deps.db);
  actor = { tenantId: tenant.tenantId, accountId: "557058:test-user" };
  other = { tenantId: otherTenant.tenantId, accountId: "557058:other-user" };
  await seedDefaultRequirementTypes(ctx.deps, actor);
  await seedDefaultRequirementTypes(ctx.deps, other);
  const types = await listRequirementTypes(ctx.deps.db, tenant.tenantId);
  systemTypeId = types.find((type) => type.prefix === "SYS")?.requirement_type_id ?? 0;
});
afterAll(() => ctx.destroy());

const request = (fileName: string, overrides: Record<string, unknown> = {}): ImportRequest =>
  ImportRequestSchema.parse({
    file_name: fileName,
    requirement_type: systemTypeId,
    location: null,
    atlassian_project_id: PROJECT,
    atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
    atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
    additional_headers: [],
    assign_based_on_component: false,
    ...overrides,
  });

const requirementsOf = (projectId: number, tenantId = actor.tenantId) =>
  ctx.deps.db("requirements").where({ tenant_id: tenantId, project_id: projectId }).orderBy("requirement_id");
const countOf = async (table: string, tenantId = actor.tenantId) =>
  Number((await ctx.deps.db(table).where({ tenant_id: tenantId }).count({ n: "*" }))[0]?.n);

describe("runImport", () => {
  it("imports Jira's export: every row in file order, with components, status and a full 'created' revision", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-valid.csv"));
    const progress: { completed?: number; total?: number }[] = [];
    const result = await runImport(ctx.deps, actor, request(file, { additional_headers: ["Priority"] }), {
      progress: (rows) => progress.push(rows),
    });
    expect(result).toEqual({ imported: 7, errors: [], error_count: 0 });
    // The file is read once: its rows are known before the first is written.
    expect(progress).toEqual([{ completed: 0 }, { total: 7 }, { completed: 7 }]);

    const rows = await requirementsOf(PROJECT);
    expect(rows.map((row) => [row.display_id, row.name, row.status_id])).toEqual([
      ["PUMP-101", "Infusion rate shall be adjustable from 0.1 to 999 mL/h", "1"],
      ["PUMP-102", 'Occlusion alarm within 30 s, "downstream"', "3"],
      ["PUMP-103", "Battery status visible on every screen", "10001"],
      ["PUMP-104", "Log every alarm with timestamp; keep 5,000 entries", "1"],
      ["PUMP-105", '=HYPERLINK("http://example.invalid","click") must stay text', "1"],
      ["PUMP-106", "Prime the line before the first infusion", "10001"],
      ["PUMP-107", "Unicode names: 注入速度, Überwachung, ñandú", "1"],
    ]);
    const details = await loadRequirementDetails(
      ctx.deps,
      actor,
      rows.map((row) => Number(row.requirement_id)),
    );
    const [first, , , fourth] = details;
    expect(first?.description).toBe(
      "The operator shall be able to set the infusion rate in steps of 0.1 mL/h.\nValues outside 0.1–999 mL/h are rejected with an audible alert.\n\nPriority: High",
    );
    expect(first?.components).toEqual([{ atlassian_component_id: "10100" }, { atlassian_component_id: "10101" }]);
    expect(fourth?.components).toEqual([{ atlassian_component_id: "10102" }, { atlassian_component_id: "10104" }]);
    expect(first?.requirement_type.prefix).toBe("SYS");

    const revisions = await ctx.deps.db("requirement_revisions").where({ tenant_id: actor.tenantId }).orderBy("requirement_id");
    expect(revisions).toHaveLength(7);
    for (const [index, detail] of details.entries()) {
      const revision = revisions[index];
      expect(revision).toMatchObject({ revision: 1, action: "created", account_id: actor.accountId });
      // The import's SQL writes what the write path's one definition (snapshotOf, filledFields) writes for a created requirement.
      expect(snapshotFromStored(revision.snapshot, detail.requirement_id)).toEqual(snapshotOf(detail));
      expect(revision.changed_fields).toEqual(filledFields(detail));
    }
    expect(revisions[0].changed_fields).toEqual(["name", "requirement_type_id", "display_id", "description", "status", "components"]);
  });

  it("imports Jira's export where the project lacks most of its components, leaving those names out when asked", async () => {
    const seededPump = [
      { id: "10201", name: "Alarms" },
      { id: "10202", name: "Dosing engine" },
    ];
    const asked = { atlassian_project_id: 10014, atlassian_component_json: JSON.stringify(seededPump) };
    const refused = await runImport(
      ctx.deps,
      actor,
      request(await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-valid.csv")), asked),
    );
    expect(refused.errors[0]).toEqual({ row: 2, reason: 'Component/s: "Dosing" is not a component of this project' });

    const file = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-valid.csv"));
    const result = await runImport(ctx.deps, actor, request(file, { ...asked, leave_out_unknown_names: true }));

    expect(result).toEqual({ imported: 7, errors: [], error_count: 0 });
    const details = await loadRequirementDetails(
      ctx.deps,
      actor,
      (await requirementsOf(10014)).map((row) => Number(row.requirement_id)),
    );
    expect(details.map((detail) => detail.components.map((component) => component.atlassian_component_id))).toEqual([
      [],
      ["10201"],
      [],
      ["10201"],
      [],
      [],
      [],
    ]);
    expect(details.map((detail) => detail.status?.atlassian_status_id)).toEqual(["1", "3", "10001", "1", "1", "10001", "1"]);
  });

  it("imports Jira's export into Global Requirements, which read neither its Status nor its Component/s columns", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-valid.csv"));
    const global = { atlassian_project_id: 0, atlassian_component_json: "[]", atlassian_statuses_json: "[]" };

    expect(await runImport(ctx.deps, actor, request(file, global))).toEqual({ imported: 7, errors: [], error_count: 0 });
    const rows = await requirementsOf(0);
    expect(rows.map((row) => row.status_id)).toEqual(Array(7).fill(null));
    expect(
      await ctx.deps.db("requirement_components").whereIn(
        "requirement_id",
        rows.map((row) => row.requirement_id),
      ),
    ).toEqual([]);
  });

  it("still refuses the whole file for bad data when unknown names are left out", async () => {
    const bad = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-one-bad-row.csv"));
    const result = await runImport(
      ctx.deps,
      actor,
      request(bad, { atlassian_project_id: 10015, leave_out_unknown_names: true, left_out_columns: ["components", "status"] }),
    );
    expect(result).toEqual({ imported: 0, errors: [{ row: 9, reason: "Name is required" }], error_count: 1 });
    expect(await requirementsOf(10015)).toEqual([]);
  });

  it("answers the earlier result when the same file is run again, writing nothing twice", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, "Name\nOnce\n");
    const before = await countOf("requirements");
    expect((await runImport(ctx.deps, actor, request(file))).imported).toBe(1);
    expect((await runImport(ctx.deps, actor, request(file))).imported).toBe(1);
    expect(await countOf("requirements")).toBe(before + 1);
  });

  it("refuses the whole file for one bad row, names it, and writes nothing; the fixed file then imports", async () => {
    const before = { requirements: await countOf("requirements"), revisions: await countOf("requirement_revisions") };
    const bad = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-one-bad-row.csv"));
    const result = await runImport(ctx.deps, actor, request(bad, { atlassian_project_id: 10001 }));
    expect(result).toEqual({ imported: 0, errors: [{ row: 9, reason: "Name is required" }], error_count: 1 });
    expect(await countOf("requirements")).toBe(before.requirements);
    expect(await countOf("requirement_revisions")).toBe(before.revisions);

    const fixed = csvFixture("jira-export-one-bad-row.csv").toString("utf8").replace("\r\n,PUMP-108", "\r\nPriming check,PUMP-108");
    const retry = await runImport(
      ctx.deps,
      actor,
      request(await putImportFile(ctx.deps, actor.tenantId, fixed), { atlassian_project_id: 10001 }),
    );
    expect(retry).toEqual({ imported: 8, errors: [], error_count: 0 });
    expect((await requirementsOf(10001)).map((row) => row.display_id)).toContain("PUMP-108");
  });

  it("reports duplicate custom IDs within the file and against the project, unknown components, statuses and options", async () => {
    await createAttribute(ctx.deps, actor, {
      name: "Risk",
      project: 10002,
      type: "select",
      options: [{ name: "High" }, { name: "Low" }],
    });
    const first = await putImportFile(ctx.deps, actor.tenantId, "Name,ID\nExisting,R-1\n");
    await runImport(ctx.deps, actor, request(first, { atlassian_project_id: 10002 }));
    const csv = [
      "Name,ID,Component/s,Status,risk",
      "A,R-1,,,",
      "B,R-2,,,",
      "C,R-2,,,",
      "D,,Pumps,,",
      "E,,,Blocked,",
      "F,,,,medium",
      "G,,dosing,done,low",
    ].join("\n");
    const result = await runImport(
      ctx.deps,
      actor,
      request(await putImportFile(ctx.deps, actor.tenantId, csv), { atlassian_project_id: 10002 }),
    );
    expect(result.errors).toEqual([
      { row: 2, reason: 'ID "R-1" is already used by another requirement in this project' },
      { row: 4, reason: 'ID "R-2" is already used in row 3' },
      { row: 5, reason: 'Component/s: "Pumps" is not a component of this project' },
      { row: 6, reason: 'Status: "Blocked" is not a status of this project' },
      { row: 7, reason: 'Risk: "medium" is not one of the field\'s options' },
    ]);
    expect(await requirementsOf(10002)).toHaveLength(1);
  });

  it("reports every problem of every row in one pass: a refused row's duplicate ID too", async () => {
    await createAttribute(ctx.deps, actor, { name: "Risk", project: 10013, type: "select", options: [{ name: "High" }] });
    await runImport(
      ctx.deps,
      actor,
      request(await putImportFile(ctx.deps, actor.tenantId, "Name,ID\nExisting,X-9\n"), { atlassian_project_id: 10013 }),
    );
    const csv = ["Name,ID,Component/s,Risk", "A,D-1,,", ",D-1,Pumps,medium", ",X-9,,", "C,X-9,,"].join("\n");

    const result = await runImport(
      ctx.deps,
      actor,
      request(await putImportFile(ctx.deps, actor.tenantId, csv), { atlassian_project_id: 10013 }),
    );

    expect(result.errors).toEqual([
      { row: 3, reason: "Name is required" },
      { row: 3, reason: 'Component/s: "Pumps" is not a component of this project' },
      { row: 3, reason: 'Risk: "medium" is not one of the field\'s options' },
      { row: 3, reason: 'ID "D-1" is already used in row 2' },
      { row: 4, reason: "Name is required" },
      { row: 4, reason: 'ID "X-9" is already used by another requirement in this project' },
      { row: 5, reason: 'ID "X-9" is already used in row 4' },
    ]);
    expect(result.error_count).toBe(7);
    expect(await requirementsOf(10013)).toHaveLength(1);
  });

  it("after thousands of rows already written, still reports every later bad row and keeps none of the file", async () => {
    // The taken ID is in the second batch, written while the third is queued behind it.
    const existing = await putImportFile(ctx.deps, actor.tenantId, "Name,ID\nExisting,L-1\n");
    await runImport(ctx.deps, actor, request(existing, { atlassian_project_id: 10005 }));
    const rows = Array.from({ length: 4500 }, (_, index) => `Row ${index},K-${index}`);
    rows[2500] = "Taken,L-1";
    rows[4100] = ",K-4100";
    rows[4400] = "Twice,K-10";
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,ID", ...rows].join("\n"));
    const result = await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10005 }));
    expect(result).toEqual({
      imported: 0,
      error_count: 3,
      errors: [
        { row: 2502, reason: 'ID "L-1" is already used by another requirement in this project' },
        { row: 4102, reason: "Name is required" },
        { row: 4402, reason: 'ID "K-10" is already used in row 12' },
      ],
    });
    expect((await requirementsOf(10005)).map((row) => row.display_id)).toEqual(["L-1"]);
  });

  it("refuses a custom ID the file uses twice, batches apart, naming its first row, and keeps none of the file", async () => {
    // Writing leaves the duplicate to the project's unique index: it meets the first use, written two batches earlier.
    const before = await countOf("requirement_revisions");
    const rows = Array.from({ length: 4500 }, (_, index) => `Row ${index},D-${index}`);
    rows[4300] = "Again,D-7";
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,ID", ...rows].join("\n"));
    const result = await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10010 }));
    expect(result).toEqual({ imported: 0, error_count: 1, errors: [{ row: 4302, reason: 'ID "D-7" is already used in row 9' }] });
    expect(await requirementsOf(10010)).toHaveLength(0);
    expect(await countOf("requirement_revisions")).toBe(before);
  });

  it("lists the first 1,000 refused rows in row order, a duplicate ID among them, and counts them all", async () => {
    const rows = ["First,X-1", "Second,X-1", ...Array.from({ length: 1200 }, (_, index) => `,N-${index}`)];
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,ID", ...rows].join("\n"));
    const result = await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10011 }));
    expect(result.error_count).toBe(1201);
    expect(result.errors).toHaveLength(1000);
    expect(result.errors[0]).toEqual({ row: 3, reason: 'ID "X-1" is already used in row 2' });
    expect(result.errors.slice(1).map((error) => error.row)).toEqual(Array.from({ length: 999 }, (_, index) => index + 4));
    expect(await requirementsOf(10011)).toHaveLength(0);
  });

  it("hands out every error of a file refused with more than the dialog shows, as a CSV to download, reading the file once", async () => {
    const rows = ["First,X-1", "Second,X-1", ...Array.from({ length: 1500 }, (_, index) => `,N-${index}`)];
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,ID", ...rows].join("\n"));
    const reads = vi.spyOn(ctx.deps.storage, "getObject");
    const result = await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10012 }));
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    expect(result).toMatchObject({
      error_count: 1501,
      errors_file: { original_file_name: expect.stringMatching(/^rmcloud-import-errors-.*\.csv$/) },
    });

    const fileName = result.errors_file?.file_name ?? "";
    const signed = await signDownload(ctx.deps, actor, fileName);
    expect(signed.original_file_name).toBe(result.errors_file?.original_file_name);
    await expect(signDownload(ctx.deps, other, fileName)).rejects.toMatchObject({ status: 404 });
    const stored = await ctx.deps.storage.getObject(storageKey(actor.tenantId, "imports", fileName));
    const listed: string[][] = parse(Buffer.concat(await stored.toArray()), { bom: true });
    expect(listed[0]).toEqual(["Row", "Reason"]);
    expect(listed).toHaveLength(1502);
    expect(listed[1]).toEqual(["3", 'ID "X-1" is already used in row 2']);
    expect(listed.at(-1)).toEqual(["1503", "Name is required"]);
  });

  it("keeps a short error list in the result alone", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, "Name,ID\n,A\n");
    expect(await runImport(ctx.deps, actor, request(file))).toEqual({
      imported: 0,
      errors: [{ row: 2, reason: "Name is required" }],
      error_count: 1,
    });
  });

  it("refuses a file without a Name column, an empty file and a file of headers only", async () => {
    const cases: [string, { row: number; reason: string }][] = [
      ["Title,ID\nA,1\n", { row: 1, reason: "The file has no Name column (Name or Summary)" }],
      ["", { row: 1, reason: "The file is empty" }],
      ["Name,ID\n", { row: 2, reason: "The file has no requirements to import" }],
    ];
    for (const [csv, error] of cases) {
      const result = await runImport(ctx.deps, actor, request(await putImportFile(ctx.deps, actor.tenantId, csv)));
      expect(result.errors).toEqual([error]);
    }
  });

  it("imports into a folder of the project, assigning by component when asked", async () => {
    const [folder] = await ctx.deps
      .db("folders")
      .insert({ tenant_id: actor.tenantId, project_id: 10003, name: "Imported", created_by: actor.accountId })
      .returning("folder_id");
    const file = await putImportFile(ctx.deps, actor.tenantId, "Summary,Component/s,Component/s\nA,UI,Alarms\n");
    await runImport(
      ctx.deps,
      actor,
      request(file, { atlassian_project_id: 10003, location: folder.folder_id, assign_based_on_component: true }),
    );
    const [row] = await requirementsOf(10003);
    expect(row).toMatchObject({ parent_folder_id: Number(folder.folder_id), assigned_to: "557058:jonas" });
    const [detail] = await loadRequirementDetails(ctx.deps, actor, [Number(row.requirement_id)]);
    if (!detail) throw new Error("the imported requirement has no detail");
    const revision = await ctx.deps
      .db("requirement_revisions")
      .where({ tenant_id: actor.tenantId, requirement_id: row.requirement_id })
      .first();
    const snapshot = snapshotFromStored(revision.snapshot, detail.requirement_id);
    expect(snapshot).toEqual(snapshotOf(detail));
    expect(revision.changed_fields).toEqual(filledFields(detail));
    expect(snapshot.assigned_to).toEqual({ account_id: "557058:jonas" });
  });

  it("builds the Folder column's tree under the chosen folder: each folder once, an existing one reused", async () => {
    const project = 10006;
    const insertFolderRow = async (name: string, parent: number | null, deleted = false) =>
      Number(
        (
          await ctx.deps
            .db("folders")
            .insert({
              tenant_id: actor.tenantId,
              project_id: project,
              parent_folder_id: parent,
              name,
              created_by: actor.accountId,
              deleted_at: deleted ? ctx.deps.db.fn.now() : null,
            })
            .returning("folder_id")
        )[0]?.folder_id,
      );
    const target = await insertFolderRow("Target", null);
    const braking = await insertFolderRow("Braking", target);
    await insertFolderRow("Front", braking, true);
    await insertFolderRow("Braking", null);
    const csv = [
      "Name,Folder",
      "Pads,Braking / Front",
      "Discs,Braking / Front ",
      "Pedal,Braking",
      "Lights,braking / Lamps / LED",
      "Loose,",
    ].join("\n");
    const file = await putImportFile(ctx.deps, actor.tenantId, csv);
    expect((await runImport(ctx.deps, actor, request(file, { atlassian_project_id: project, location: target }))).imported).toBe(5);

    const folders = await ctx.deps.db("folders").where({ tenant_id: actor.tenantId, project_id: project }).whereNull("deleted_at");
    const parentOf = new Map(
      folders.map((folder) => [Number(folder.folder_id), folder.parent_folder_id === null ? null : Number(folder.parent_folder_id)]),
    );
    const pathOf = (folderId: number | null): string =>
      folderId === null
        ? ""
        : `${pathOf(parentOf.get(folderId) ?? null)}/${folders.find((folder) => Number(folder.folder_id) === folderId)?.name}`;
    expect(folders.map((folder) => pathOf(Number(folder.folder_id))).sort()).toEqual([
      "/Braking",
      "/Target",
      "/Target/Braking",
      "/Target/Braking/Front",
      "/Target/braking",
      "/Target/braking/Lamps",
      "/Target/braking/Lamps/LED",
    ]);
    const rows = await requirementsOf(project);
    expect(rows.map((row) => [row.name, pathOf(row.parent_folder_id === null ? null : Number(row.parent_folder_id))])).toEqual([
      ["Pads", "/Target/Braking/Front"],
      ["Discs", "/Target/Braking/Front"],
      ["Pedal", "/Target/Braking"],
      ["Lights", "/Target/braking/Lamps/LED"],
      ["Loose", "/Target"],
    ]);
    expect(rows[1]?.parent_folder_id).toBe(rows[0]?.parent_folder_id);
    expect(Number(rows[2]?.parent_folder_id)).toBe(braking);
    const revisions = await ctx.deps
      .db("requirement_revisions")
      .whereIn(
        "requirement_id",
        rows.map((row) => row.requirement_id),
      )
      .orderBy("requirement_id");
    expect(revisions.map((revision) => snapshotFromStored(revision.snapshot, Number(revision.requirement_id)).parent_folder_id)).toEqual(
      rows.map((row) => Number(row.parent_folder_id)),
    );
  });

  it("creates a folder first named at the end of one batch once, for the rows of the next batch too, keeping file order", async () => {
    // The second batch's new folder waits behind the first batch's statement while the third batch is read.
    const rows = Array.from({ length: 6000 }, (_, index) => `Row ${index},${index >= 3990 && index < 4010 ? "Late / Lane" : ""}`);
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,Folder", ...rows].join("\n"));
    expect((await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10009 }))).imported).toBe(6000);

    const folders = await ctx.deps.db("folders").where({ tenant_id: actor.tenantId, project_id: 10009 }).orderBy("folder_id");
    expect(folders.map((folder) => folder.name)).toEqual(["Late", "Lane"]);
    const imported = await requirementsOf(10009);
    expect(imported.map((row) => row.name)).toEqual(rows.map((row) => row.split(",")[0]));
    const lane = Number(folders[1]?.folder_id);
    expect(imported.filter((row) => Number(row.parent_folder_id) === lane).map((row) => row.name)).toEqual(
      Array.from({ length: 20 }, (_, index) => `Row ${3990 + index}`),
    );
  });

  it("creates no folder when the file is refused after a batch with new folders was written, naming each bad row", async () => {
    const before = await countOf("folders");
    const rows = Array.from({ length: 2100 }, (_, index) => `Row ${index},New / Batch ${index % 3}`);
    rows[2050] = ",New";
    rows[2060] = "Pedal,New / ";
    rows[2070] = "Lever,Hand\\brake";
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,Folder", ...rows].join("\n"));
    const result = await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10007 }));
    expect(result.errors).toEqual([
      { row: 2052, reason: "Name is required" },
      { row: 2062, reason: 'Folder: "New / " has an empty folder name' },
      { row: 2072, reason: 'Folder: "Hand\\brake": The name cannot contain a backslash (\\)' },
    ]);
    expect(await countOf("folders")).toBe(before);
    expect(await requirementsOf(10007)).toHaveLength(0);
  });

  it("never reads another site's file, nor imports into another site's type", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, "Name\nSecret\n");
    const refused = await runImport(ctx.deps, other, request(file)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect(await countOf("requirements", other.tenantId)).toBe(0);
  });

  it("writes nothing when the worker stops mid-import, and the next try imports every row once", async () => {
    const csv = ["Name,ID", ...Array.from({ length: 2500 }, (_, index) => `Row ${index},K-${index}`)].join("\r\n");
    const file = await putImportFile(ctx.deps, actor.tenantId, csv);
    const crash = runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10004 }), {
      progress: (rows) => {
        if (rows.completed === 2000) throw new Error("worker stopped");
      },
    });
    await expect(crash).rejects.toThrow("worker stopped");
    expect(await requirementsOf(10004)).toHaveLength(0);

    expect((await runImport(ctx.deps, actor, request(file, { atlassian_project_id: 10004 }))).imported).toBe(2500);
    const rows = await requirementsOf(10004);
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((row) => row.display_id)).size).toBe(2500);
    expect(rows.at(-1)?.name).toBe("Row 2499");
  });
});
