import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { PUMP_COMPONENTS, PUMP_STATUSES, putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import type { Actor } from "../context.js";
import { createFolder } from "../folders/createFolder.js";
import { updateFolder } from "../folders/updateFolder.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { runImport } from "./importRequirements.js";

const PROJECT = 10000;
const ROWS = 3000;
let ctx: TestContext;
let actor: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  actor = { tenantId: (await createTenant(ctx.deps.db)).tenantId, accountId: "557058:test-user" };
  await seedDefaultRequirementTypes(ctx.deps, actor);
});
afterAll(() => ctx.destroy());

const csvLines = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => `Requirement ${from + n}\n`).join("");

// Two transactions at once need two connections: PostgreSQL only (PGlite is one connection).
describe("an import and the folder tree", () => {
  it("does not hold the tree while it reads its file, which it reads once: a folder move during the read completes at once", async () => {
    const typeId = (await listRequirementTypes(ctx.deps.db, actor.tenantId)).find((type) => type.prefix === "SYS")?.requirement_type_id;
    const moved = await createFolder(ctx.deps, actor, { name: "Moved", project: PROJECT, parent_folder_id: null });
    const target = await createFolder(ctx.deps, actor, { name: "Target", project: PROJECT, parent_folder_id: null });
    const fileName = await putImportFile(ctx.deps, actor.tenantId, "Summary\n");

    // The file arrives in two parts; the second only once the test lets it (storage that is slow to answer).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading = () => {};
    const readPhase = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const reads = vi.spyOn(ctx.deps.storage, "getObject").mockImplementation(async () =>
      Readable.from(
        (async function* () {
          yield `Summary\n${csvLines(0, ROWS / 2)}`;
          reading();
          await released;
          yield csvLines(ROWS / 2, ROWS);
        })(),
      ),
    );
    const importing = runImport(
      ctx.deps,
      actor,
      ImportRequestSchema.parse({
        file_name: fileName,
        requirement_type: typeId,
        location: null,
        atlassian_project_id: PROJECT,
        atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
        atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
        additional_headers: [],
        assign_based_on_component: false,
      }),
    );
    await readPhase;

    const move = updateFolder(ctx.deps, actor, moved.folder_id, { name: "Moved", parent_folder_id: target.folder_id }).then(() => "moved");
    const waited = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5000));
    expect(await Promise.race([move, waited])).toBe("moved");

    release();
    expect((await importing).imported).toBe(ROWS);
    expect(reads).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    const folder = await ctx.deps.db("folders").where({ tenant_id: actor.tenantId, folder_id: moved.folder_id }).first();
    expect(Number(folder.parent_folder_id)).toBe(target.folder_id);
  }, 60_000);
});
