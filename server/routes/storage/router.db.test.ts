import { randomUUID } from "node:crypto";
import { appActor } from "../../services/context.js";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  IMPORT_NOT_CSV_MESSAGE,
  MAX_ATTACHMENT_BYTES,
  MAX_IMPORT_BYTES,
} from "../../../common/schemas/storage.js";
import { bearer, createSignedInApp, createTenant, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { localPath, uploadAttachment as uploadTo } from "../../../test/helpers/storage.js";
import { ATTACHMENT_NOT_UPLOADED_MESSAGE, verifyUploadedAttachment } from "../../services/storage/verifyUploadedAttachment.js";
import { storageKey } from "../../storage/objectStorage.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
});
afterAll(() => ctx.destroy());

const local = (url: string) => localPath(ctx, url);

async function signPut(body: object, authorization = auth) {
  return request(ctx.app).post("/api/sign-s3-put").set("Authorization", authorization).send(body);
}

const uploadAttachment = (name: string, type: string, content: Buffer | string) => uploadTo(ctx, auth, name, type, content);

describe("POST /api/sign-s3-put", () => {
  it("signs an attachment upload that is then PUT and downloaded back under its original name", async () => {
    const { uuid, url, put } = await uploadAttachment("Wireframe v2.png", "image/png", Buffer.from("PNG bytes"));
    expect(uuid).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(url.startsWith(`${ctx.deps.config.baseUrl}/storage/${tenant.tenantId}/attachments/${uuid}?`)).toBe(true);
    expect([200, 204]).toContain(put.status);

    const signed = await request(ctx.app)
      .post("/api/sign-s3-get")
      .set("Authorization", auth)
      .send({ original_file_name: "Wireframe v2.png", uuid_file_name: uuid });
    expect(signed.status).toBe(200);
    expect(signed.body.original_file_name).toBe("Wireframe v2.png");

    const download = await request(ctx.app).get(local(signed.body.presigned_url)).buffer(true);
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toBe("image/png");
    expect(download.headers["content-disposition"]).toBe('attachment; filename="Wireframe v2.png"');
    expect(Buffer.from(download.body).toString()).toBe("PNG bytes");
  });

  it("records the pending upload for this site, not yet attached to a requirement", async () => {
    const signed = await signPut({ operation: "attachment", original_file_name: "notes.txt", file_type: "text/plain" });
    const row = await ctx.deps.db("attachments").where({ uuid_file_name: signed.body.uuid_file_name }).first();
    expect(row).toMatchObject({
      tenant_id: tenant.tenantId,
      operation: "attachment",
      original_file_name: "notes.txt",
      content_type: "text/plain",
      requirement_id: null,
      created_by: "557058:test-user",
    });
  });

  it("stores a JSON file as the bytes the browser sent", async () => {
    const json = '{"not": "an API call"}';
    const { uuid, put } = await uploadAttachment("data.json", "application/json", json);
    expect(put.status).toBe(200);
    const stored = await ctx.deps.storage.getObject(storageKey(tenant.tenantId, "attachments", uuid));
    expect((await stored.toArray()).join("")).toBe(json);
  });

  it("signs a .csv for import under the site's imports", async () => {
    const signed = await signPut({ operation: "import", original_file_name: "Requirements.CSV", file_type: "text/csv" });
    expect(signed.status).toBe(200);
    expect(signed.body.presigned_url).toContain(`/storage/${tenant.tenantId}/imports/${signed.body.uuid_file_name}?`);
  });

  it("signs an Excel workbook (.xlsx) for import (issue 35)", async () => {
    const signed = await signPut({
      operation: "import",
      original_file_name: "requirements.xlsx",
      file_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
    expect(signed.status).toBe(200);
  });

  it("refuses an import that is no file the import reads with the import dialog's message", async () => {
    const signed = await signPut({ operation: "import", original_file_name: "requirements.xls", file_type: "application/vnd.ms-excel" });
    expect(signed.status).toBe(400);
    expect(signed.body).toEqual({ Result: IMPORT_NOT_CSV_MESSAGE });
  });

  it("answers field errors for an unknown operation or a missing file name", async () => {
    const signed = await signPut({ operation: "export", file_type: "text/csv" });
    expect(signed.status).toBe(400);
    expect(Object.keys(signed.body).sort()).toEqual(["operation", "original_file_name"]);
  });

  it("needs a signed-in user", async () => {
    const signed = await request(ctx.app)
      .post("/api/sign-s3-put")
      .send({ operation: "attachment", original_file_name: "a.txt", file_type: "text/plain" });
    expect(signed.status).toBe(401);
  });
});

describe("the local-disk upload URL", () => {
  it("refuses an attachment over 25 MB with 413 and keeps nothing", async () => {
    const { uuid, put } = await uploadAttachment("huge.bin", "application/octet-stream", Buffer.alloc(MAX_ATTACHMENT_BYTES + 1));
    expect(put.status).toBe(413);
    expect(put.body).toEqual({ Result: ATTACHMENT_TOO_LARGE_MESSAGE });
    expect(await ctx.deps.storage.head(storageKey(tenant.tenantId, "attachments", uuid))).toBeUndefined();
  });

  it("takes an import file larger than an attachment may be: imports have their own ceiling", async () => {
    const signed = await signPut({ operation: "import", original_file_name: "jira-export.csv", file_type: "text/csv" });
    expect(signed.status).toBe(200);
    expect(new URL(signed.body.presigned_url).searchParams.get("max")).toBe(String(MAX_IMPORT_BYTES));
    const put = await request(ctx.app)
      .put(local(signed.body.presigned_url))
      .set("Content-Type", "text/csv")
      .send(Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, "a"));
    expect([200, 204]).toContain(put.status);
    const stored = await ctx.deps.storage.head(storageKey(tenant.tenantId, "imports", signed.body.uuid_file_name));
    expect(stored?.size).toBe(MAX_ATTACHMENT_BYTES + 1);
  });

  it("refuses a streamed upload that grows past the limit without announcing its length", async () => {
    const key = storageKey(tenant.tenantId, "attachments", `${randomUUID()}.txt`);
    const url = await ctx.deps.storage.presignPut(key, { contentType: "text/plain", maxBytes: 10 });
    const server: Server = ctx.app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("0123456789"));
          controller.enqueue(new TextEncoder().encode("overflow"));
          controller.close();
        },
      });
      const put = await fetch(`http://127.0.0.1:${port}${local(url)}`, {
        method: "PUT",
        headers: { "Content-Type": "text/plain" },
        body: chunks,
        duplex: "half",
      } as RequestInit);
      expect(put.status).toBe(413);
      expect(await ctx.deps.storage.head(key)).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses an expired link with 403", async () => {
    const key = storageKey(tenant.tenantId, "attachments", `${randomUUID()}.txt`);
    const url = await ctx.deps.storage.presignPut(key, { contentType: "text/plain", maxBytes: 100, expiresInSeconds: -1 });
    const put = await request(ctx.app).put(local(url)).set("Content-Type", "text/plain").send("late");
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ Result: "This link has expired" });
  });

  it("refuses a forged signature, a raised limit or another content type with 403", async () => {
    const signed = await signPut({ operation: "attachment", original_file_name: "a.txt", file_type: "text/plain" });
    const url = new URL(signed.body.presigned_url);
    const forged = new URL(url);
    forged.searchParams.set("sig", "A".repeat(43));
    const raised = new URL(url);
    raised.searchParams.set("max", String(10 * MAX_ATTACHMENT_BYTES));

    for (const [target, type] of [
      [forged, "text/plain"],
      [raised, "text/plain"],
      [url, "text/html"],
    ] as const) {
      const put = await request(ctx.app).put(`${target.pathname}${target.search}`).set("Content-Type", type).send("x");
      expect(put.status).toBe(403);
      expect(put.body).toEqual({ Result: "This link is not valid" });
    }
  });

  it("refuses a link whose size limit was shifted into a newline of the signed file type, and takes the link as signed", async () => {
    const signed = await signPut({ operation: "attachment", original_file_name: "a.txt", file_type: "text/plain\nx" });
    const url = new URL(signed.body.presigned_url);
    const shifted = new URL(url);
    shifted.searchParams.set("max", `${url.searchParams.get("max")}\ntext/plain`);
    const put = await request(ctx.app).put(`${shifted.pathname}${shifted.search}`).set("Content-Type", "x").send("unlimited");
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ Result: "This link is not valid" });
    expect(await ctx.deps.storage.head(storageKey(tenant.tenantId, "attachments", signed.body.uuid_file_name))).toBeUndefined();

    const { put: normal } = await uploadAttachment("b.txt", "text/plain", "as signed");
    expect(normal.status).toBe(200);
  });

  it("cannot be pointed at another site's file", async () => {
    const other = await createTenant(ctx.deps.db);
    const otherKey = storageKey(other.tenantId, "attachments", `${randomUUID()}.txt`);
    await ctx.deps.storage.putObject(otherKey, "theirs", "text/plain");

    const signed = await signPut({ operation: "attachment", original_file_name: "a.txt", file_type: "text/plain" });
    const url = new URL(signed.body.presigned_url);
    const put = await request(ctx.app).put(`/storage/${otherKey}${url.search}`).set("Content-Type", "text/plain").send("mine");
    expect(put.status).toBe(403);
    const stored = await ctx.deps.storage.getObject(otherKey);
    expect((await stored.toArray()).join("")).toBe("theirs");
  });

  it("answers 404 for a download link of a file that was never uploaded", async () => {
    const key = storageKey(tenant.tenantId, "attachments", `${randomUUID()}.txt`);
    const url = await ctx.deps.storage.presignGet(key, { downloadName: "a.txt" });
    const download = await request(ctx.app).get(local(url));
    expect(download.status).toBe(404);
  });
});

describe("POST /api/sign-s3-get", () => {
  it("answers 404 for another site's file", async () => {
    const other = await createTenant(ctx.deps.db);
    const theirs = await signPut(
      { operation: "attachment", original_file_name: "secret.pdf", file_type: "application/pdf" },
      await bearer(ctx, other),
    );
    const signed = await request(ctx.app)
      .post("/api/sign-s3-get")
      .set("Authorization", auth)
      .send({ original_file_name: "secret.pdf", uuid_file_name: theirs.body.uuid_file_name });
    expect(signed.status).toBe(404);
    expect(signed.body).toEqual({ Result: "File not found" });
  });

  it("refuses a file name that is not one of ours", async () => {
    const signed = await request(ctx.app)
      .post("/api/sign-s3-get")
      .set("Authorization", auth)
      .send({ original_file_name: "x", uuid_file_name: "../../etc/passwd" });
    expect(signed.status).toBe(400);
    expect(signed.body).toHaveProperty("uuid_file_name");
  });
});

describe("verifyUploadedAttachment, for the requirement PATCH that attaches a file", () => {
  it("confirms an uploaded attachment and records its real size", async () => {
    const { uuid } = await uploadAttachment("spec.txt", "text/plain", "twelve bytes");
    const upload = await verifyUploadedAttachment(ctx.deps, appActor(tenant.tenantId), uuid);
    expect(upload).toMatchObject({ uuidFileName: uuid, originalFileName: "spec.txt", sizeBytes: 12, requirementId: null });
    const row = await ctx.deps.db("attachments").where({ tenant_id: tenant.tenantId, uuid_file_name: uuid }).first();
    expect(Number(row.size_bytes)).toBe(12);
  });

  it("refuses a file that was signed but never uploaded, or that belongs to another site", async () => {
    const signed = await signPut({ operation: "attachment", original_file_name: "a.txt", file_type: "text/plain" });
    await expect(verifyUploadedAttachment(ctx.deps, appActor(tenant.tenantId), signed.body.uuid_file_name)).rejects.toMatchObject({
      status: 400,
      body: { Result: ATTACHMENT_NOT_UPLOADED_MESSAGE },
    });
    const { uuid } = await uploadAttachment("b.txt", "text/plain", "b");
    const other = await createTenant(ctx.deps.db);
    await expect(verifyUploadedAttachment(ctx.deps, appActor(other.tenantId), uuid)).rejects.toMatchObject({ status: 400 });
  });

  it("refuses and removes a file over 25 MB that storage accepted (S3 cannot bound a presigned PUT)", async () => {
    const signed = await signPut({ operation: "attachment", original_file_name: "big.bin", file_type: "application/octet-stream" });
    const key = storageKey(tenant.tenantId, "attachments", signed.body.uuid_file_name);
    await ctx.deps.storage.putObject(key, Buffer.alloc(MAX_ATTACHMENT_BYTES + 1), "application/octet-stream");

    await expect(verifyUploadedAttachment(ctx.deps, appActor(tenant.tenantId), signed.body.uuid_file_name)).rejects.toMatchObject({
      status: 400,
      body: { Result: ATTACHMENT_TOO_LARGE_MESSAGE },
    });
    expect(await ctx.deps.storage.head(key)).toBeUndefined();
  });
});
