import { readdirSync, readFileSync } from "node:fs";
import request from "supertest";
import { expect, vi } from "vitest";
import type { JobStatusResponse } from "../../common/schemas/job.js";
import type { ReqifImportRequestInput } from "../../common/schemas/reqif.js";
import type { Db } from "../../server/db/knex.js";
import type { TestContext } from "./app.js";
import { putImportFile } from "./csvImport.js";

/** The shared real-world ReqIF files (DOORS, Polarion, Enterprise Architect, ReqIF Studio, Eclipse RMF and single-feature samples). */
export const REQIF_FIXTURES = new URL("../../../shared/data/reqif/", import.meta.url);
export const reqifFixtureNames = () =>
  readdirSync(REQIF_FIXTURES)
    .filter((name) => /\.reqifz?$/.test(name))
    .sort();
export const reqifFixture = (name: string) => readFileSync(new URL(name, REQIF_FIXTURES));

/** Polls a job until it ends; answers its status. */
export async function jobOutcome(ctx: TestContext, auth: string, jobId: string): Promise<JobStatusResponse> {
  let outcome: JobStatusResponse | undefined;
  await vi.waitFor(
    async () => {
      const status = await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth);
      expect(["finished", "failed"]).toContain(status.body.status);
      outcome = status.body;
    },
    { timeout: 60_000, interval: 100 },
  );
  return outcome as JobStatusResponse;
}

/** Uploads the bytes as the browser would and runs POST /api/import-reqif to its end. */
export async function importReqif(
  ctx: TestContext,
  tenantId: string,
  auth: string,
  content: Buffer | string,
  body: Omit<ReqifImportRequestInput, "file_name" | "original_file_name"> & { original_file_name?: string },
): Promise<JobStatusResponse> {
  const originalFileName = body.original_file_name ?? "import.reqif";
  const fileName = await putImportFile(ctx.deps, tenantId, content, originalFileName);
  const started = await request(ctx.app)
    .post("/api/import-reqif")
    .set("Authorization", auth)
    .send({ ...body, file_name: fileName, original_file_name: originalFileName });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return jobOutcome(ctx, auth, started.body.job_id);
}

export type TreeNode = { folder: string; children: TreeNode[] } | { requirement: string };

/** A project's active folders and requirements as nested names: folders first, then requirements, each by name. */
export async function projectTree(db: Db, tenantId: string, projectId: number, rootFolderId: number | null = null): Promise<TreeNode[]> {
  const folders: { folder_id: string; parent_folder_id: string | null; name: string }[] = await db("folders")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .orderBy("folder_id")
    .select("folder_id", "parent_folder_id", "name");
  const requirements: { parent_folder_id: string | null; name: string }[] = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .orderBy("requirement_id")
    .select("parent_folder_id", "name");
  const level = (parent: number | null): TreeNode[] => [
    ...folders
      .filter((folder) => (folder.parent_folder_id === null ? null : Number(folder.parent_folder_id)) === parent)
      .sort((a, b) => a.name.localeCompare(b.name) || Number(a.folder_id) - Number(b.folder_id))
      .map((folder) => ({ folder: folder.name, children: level(Number(folder.folder_id)) })),
    ...requirements
      .filter((requirement) => (requirement.parent_folder_id === null ? null : Number(requirement.parent_folder_id)) === parent)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((requirement) => ({ requirement: requirement.name })),
  ];
  return level(rootFolderId);
}

/** The OMG schema as the tests hand it to xmllint: relative to the project root, where the shared data sits beside the repository. */
export const REQIF_SCHEMA_FROM_ROOT = "../shared/data/reqif/schema/reqif.xsd";
