import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { type AddressInfo, createServer, type Socket } from "node:net";
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
let port: number;
let storage: S3Storage;
const settings = (endpoint: string) => ({
  driver: "s3" as const,
  bucket: BUCKET,
  endpoint,
  publicEndpoint: undefined,
  region: "us-east-1",
  forcePathStyle: true,
});

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "rmcloud-s3rver-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  ({ port } = await server.run());
  // The driver takes its credentials from the standard AWS chain, as in production; s3rver checks these.
  vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");
  storage = new S3Storage(settings(`http://127.0.0.1:${port}`));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const newKey = () => storageKey(randomUUID(), "attachments", `${randomUUID()}.txt`);

describe("the S3 driver against an S3-protocol server", () => {
  it("deletes every object of one tenant and no other tenant's", async () => {
    const doomed = randomUUID();
    const kept = randomUUID();
    const keysOf = (tenantId: string, count: number) =>
      Array.from({ length: count }, (_, index) => storageKey(tenantId, index % 2 ? "imports" : "attachments", `file-${index}.txt`));
    const DOOMED_FILES = 300;
    const keys = [...keysOf(doomed, DOOMED_FILES), ...keysOf(kept, 3)];
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(keys.slice(start, start + 50).map((key) => storage.putObject(key, "x", "text/plain")));
    }

    await storage.deleteTenantFiles(doomed);

    expect((await Promise.all(keysOf(doomed, DOOMED_FILES).map((key) => storage.head(key)))).filter(Boolean)).toEqual([]);
    expect((await Promise.all(keysOf(kept, 3).map((key) => storage.head(key)))).filter(Boolean)).toHaveLength(3);
    await expect(storage.deleteTenantFiles("../etc")).rejects.toThrow("Not a tenant id");
  }, 60_000);

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

describe("a store the server reaches at another address than browsers do (S3_PUBLIC_ENDPOINT)", () => {
  it("hands out URLs on the public address and keeps its own calls on the internal one", async () => {
    // localhost plays the public name, 127.0.0.1 the compose network's: the same s3rver answers both.
    const split = new S3Storage({ ...settings(`http://127.0.0.1:${port}`), publicEndpoint: `http://localhost:${port}` });
    const key = newKey();

    const uploadUrl = await split.presignPut(key, { contentType: "text/plain", maxBytes: 1024 });
    expect(new URL(uploadUrl).host).toBe(`localhost:${port}`);
    const upload = await fetch(uploadUrl, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "via the public name" });
    expect(isUploadSuccess(upload.status)).toBe(true);

    expect(await split.head(key)).toEqual({ size: 19, contentType: "text/plain" });
    expect(await text(await split.getObject(key))).toBe("via the public name");

    const downloadUrl = await split.presignGet(key, { downloadName: "spec.txt" });
    expect(new URL(downloadUrl).host).toBe(`localhost:${port}`);
    expect(await (await fetch(downloadUrl)).text()).toBe("via the public name");
  });
});

describe("a store that stops answering", () => {
  it("fails the call after the request timeout instead of holding the API request forever", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port: silentPort } = silent.address() as AddressInfo;
      const hanging = new S3Storage(settings(`http://127.0.0.1:${silentPort}`), { connectionTimeout: 3_000, requestTimeout: 200 });
      const started = Date.now();
      await expect(hanging.head(newKey())).rejects.toThrow(/requestTimeout/);
      // Three tries of 200 ms and the SDK's back-off between them.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("streamed puts to S3", () => {
  it("upload a large object in parts, a small one whole, and leave nothing of a failed stream", async () => {
    await expectStreamedPutContract(storage);
  });
});
