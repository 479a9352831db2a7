import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isUploadSuccess } from "../../common/schemas/storage.js";
import { ObjectNotFoundError, storageKey } from "./objectStorage.js";
import { expectStreamedPutContract } from "../../test/helpers/streamedPut.js";
import { S3Storage } from "./s3.js";

const BUCKET = "rmcloud-test";
let server: S3rver;
let directory: string;
let storage: S3Storage;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "rmcloud-s3rver-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  // The driver takes its credentials from the standard AWS chain, as in production; s3rver checks these.
  vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");
  storage = new S3Storage({
    driver: "s3",
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    forcePathStyle: true,
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const newKey = () => storageKey(randomUUID(), "attachments", `${randomUUID()}.txt`);

describe("the S3 driver against an S3-protocol server", () => {
  it("takes a browser upload on a presigned URL, then serves it on a presigned download URL", async () => {
    const key = newKey();
    const uploadUrl = await storage.presignPut(key, { contentType: "text/plain", maxBytes: 1024 });
    const upload = await fetch(uploadUrl, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "spec v2" });
    expect(isUploadSuccess(upload.status)).toBe(true);

    expect(await storage.head(key)).toEqual({ size: 7, contentType: "text/plain" });

    const download = await fetch(await storage.presignGet(key, { downloadName: "Spezifikation Ü.txt" }));
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("spec v2");
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="Spezifikation _.txt"; filename*=UTF-8''Spezifikation%20%C3%9C.txt`,
    );
  });

  it("writes, reads and deletes objects from the server side, and deleting a missing one is no error", async () => {
    const key = storageKey(randomUUID(), "exports", `${randomUUID()}.csv`);
    await storage.putObject(key, "ID,Name\n1,Login\n", "text/csv");

    expect(await storage.head(key)).toEqual({ size: 16, contentType: "text/csv" });
    expect(await text(await storage.getObject(key))).toBe("ID,Name\n1,Login\n");

    await storage.delete(key);
    expect(await storage.head(key)).toBeUndefined();
    await expect(storage.getObject(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    // Clean-ups delete again what a run that died half way already deleted.
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("reports nothing for a key that was signed but never uploaded", async () => {
    const key = newKey();
    await storage.presignPut(key, { contentType: "image/png", maxBytes: 1024 });
    expect(await storage.head(key)).toBeUndefined();
  });
});

describe("streamed puts to S3", () => {
  it("upload a large object in parts, a small one whole, and leave nothing of a failed stream", async () => {
    await expectStreamedPutContract(storage);
  });
});
