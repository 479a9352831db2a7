import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  bearer,
  createTenant,
  createTestApp,
  postRequirement,
  seedRequirementTypes,
  type TestContext,
  testConfig,
} from "../../test/helpers/app.js";
import { fakeJira } from "../../test/helpers/fakeJira.js";
import { localPath, uploadAttachment } from "../../test/helpers/storage.js";
import { ATTACHMENT_NOT_UPLOADED_MESSAGE } from "../services/storage/verifyUploadedAttachment.js";
import { STORAGE_UNREACHABLE_MESSAGE, unreachableAs503 } from "./index.js";
import { LocalDiskStorage } from "./localDisk.js";
import type { ObjectStorage } from "./objectStorage.js";
import { S3Storage } from "./s3.js";

const PROJECT = 10000;

type Site = { ctx: TestContext; auth: string; tenantId: string; requirementId: number };

/** The add-on on `storage`, working its jobs (one retry, a second apart), with one requirement of one site. */
async function siteOn(storage: ObjectStorage): Promise<Site> {
  const ctx = await createTestApp(
    { storage, hostClient: fakeJira([]).client },
    { jobs: { work: true, retry: { retryLimit: 1, retryDelaySeconds: 1, retryBackoff: false } } },
  );
  const tenant = await createTenant(ctx.deps.db);
  const auth = await bearer(ctx, tenant);
  const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  const requirementId = await postRequirement(ctx, auth, "Log every dose", types.SYS, PROJECT);
  return { ctx, auth, tenantId: tenant.tenantId, requirementId };
}

const attachmentsOf = async (site: Site) =>
  (await request(site.ctx.app).get(`/api/requirement/${site.requirementId}`).set("Authorization", site.auth)).body.attachments;

const attach = (site: Site, uuid: string) =>
  request(site.ctx.app)
    .patch(`/api/requirement/${site.requirementId}`)
    .set("Authorization", site.auth)
    .send({ attachments: [{ original_file_name: "spec.txt", uuid_file_name: uuid }] });

/** Starts a Word export and answers its status once it has failed or finished, and the file's key. */
async function exportMatrix(site: Site) {
  const started = await request(site.ctx.app)
    .post("/api/requirement/matrix/export")
    .set("Authorization", site.auth)
    .send({ atlassian_project_id: PROJECT, type: "docx", selected_issue_types: [] });
  expect(started.status).toBe(200);
  return vi.waitFor(
    async () => {
      const status = await request(site.ctx.app).get(`/api/job/status/${started.body.job_id}`).set("Authorization", site.auth);
      expect(["failed", "finished"]).toContain(status.body.status);
      return status.body;
    },
    { timeout: 30_000, interval: 250 },
  );
}

describe("the local disk going away (its folder replaced by a file: no directory to write to or read from)", () => {
  let root: string;
  let site: Site;
  const objects = () => path.join(root, "objects");

  /** Until the returned function runs, nothing under the store's folder can be written or read. */
  async function diskAway(): Promise<() => Promise<void>> {
    await mkdir(objects(), { recursive: true });
    await rename(objects(), `${objects()}-away`);
    await writeFile(objects(), "");
    return async () => {
      await rm(objects());
      await rename(`${objects()}-away`, objects());
    };
  }

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "rmcloud-storage-outage-"));
    const config = testConfig();
    site = await siteOn(unreachableAs503(new LocalDiskStorage({ root, baseUrl: config.baseUrl, secret: config.appTokenSecret })));
  });

  afterAll(async () => {
    await site.ctx.destroy();
    await rm(root, { recursive: true, force: true });
  });

  it("an upload answers 503 with the store's message; attaching it then is refused with the spec's error and the requirement keeps its attachments", async () => {
    const back = await diskAway();
    const upload = await uploadAttachment(site.ctx, site.auth, "spec.txt", "text/plain", "twelve bytes");
    await back();

    expect(upload.put.status).toBe(503);
    expect(upload.put.body).toEqual({ Result: STORAGE_UNREACHABLE_MESSAGE });
    const attached = await attach(site, upload.uuid);
    expect(attached.status).toBe(400);
    expect(attached.body).toEqual({ Result: ATTACHMENT_NOT_UPLOADED_MESSAGE });
    expect(await attachmentsOf(site)).toEqual([]);
  });

  it("a download answers 503 with the store's message, and the file downloads once the disk is back", async () => {
    const upload = await uploadAttachment(site.ctx, site.auth, "spec.txt", "text/plain", "twelve bytes");
    expect(upload.put.status).toBe(200);
    const signed = await request(site.ctx.app)
      .post("/api/sign-s3-get")
      .set("Authorization", site.auth)
      .send({ original_file_name: "spec.txt", uuid_file_name: upload.uuid });
    expect(signed.status).toBe(200);

    const back = await diskAway();
    const refused = await request(site.ctx.app).get(localPath(site.ctx, signed.body.presigned_url));
    await back();

    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ Result: STORAGE_UNREACHABLE_MESSAGE });
    const downloaded = await request(site.ctx.app).get(localPath(site.ctx, signed.body.presigned_url));
    expect(downloaded.status).toBe(200);
    expect(downloaded.text).toBe("twelve bytes");
  });

  it("a Word export whose file cannot be written is tried again, then fails with the store's message, leaving no file whole or partial", async () => {
    const back = await diskAway();
    const status = await exportMatrix(site).finally(back);

    expect(status).toMatchObject({ status: "failed", error: STORAGE_UNREACHABLE_MESSAGE });
    const exportsFolder = path.join(objects(), site.tenantId, "exports");
    expect(await readdir(exportsFolder).catch(() => [])).toEqual([]);
  });
});

describe("S3 unreachable (the driver pointed at a port nothing listens on)", () => {
  let site: Site;

  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");
    const s3 = new S3Storage({
      driver: "s3",
      bucket: "rmcloud-test",
      endpoint: `http://127.0.0.1:${port}`,
      publicEndpoint: undefined,
      region: "us-east-1",
      forcePathStyle: true,
    });
    site = await siteOn(unreachableAs503(s3));
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await site.ctx.destroy();
  });

  it("attaching an upload answers 503 with the store's message and the requirement keeps its attachments", async () => {
    const signed = await request(site.ctx.app)
      .post("/api/sign-s3-put")
      .set("Authorization", site.auth)
      .send({ operation: "attachment", original_file_name: "spec.txt", file_type: "text/plain" });
    expect(signed.status).toBe(200);

    const attached = await attach(site, signed.body.uuid_file_name);
    expect(attached.status).toBe(503);
    expect(attached.body).toEqual({ Result: STORAGE_UNREACHABLE_MESSAGE });
    expect(await attachmentsOf(site)).toEqual([]);
  });

  it("a Word export is tried again, then fails with the store's message", async () => {
    expect(await exportMatrix(site)).toMatchObject({ status: "failed", error: STORAGE_UNREACHABLE_MESSAGE });
  });
});
