import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectStreamedPutContract } from "../../test/helpers/streamedPut.js";
import { LocalDiskStorage, type SignedQuery } from "./localDisk.js";
import { ObjectNotFoundError, storageKey } from "./objectStorage.js";

let root: string;
let clock: number;
let storage: LocalDiskStorage;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "rmcloud-local-disk-"));
  clock = Date.parse("2026-11-22T12:00:00Z");
  storage = new LocalDiskStorage({ root, baseUrl: "https://rm.example.com", secret: "secret-0123456789", now: () => clock });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const tenantId = randomUUID();
const newKey = () => storageKey(tenantId, "attachments", `${randomUUID()}.png`);

function parseUrl(url: string): { key: string; query: SignedQuery } {
  const parsed = new URL(url);
  return { key: parsed.pathname.replace(/^\/storage\//, ""), query: Object.fromEntries(parsed.searchParams) };
}

describe("presigned URLs of the local disk", () => {
  it("point at the add-on's /storage endpoint for the tenant's key", async () => {
    const key = newKey();
    const url = await storage.presignPut(key, { contentType: "image/png", maxBytes: 100 });
    expect(url.startsWith(`https://rm.example.com/storage/${key}?`)).toBe(true);
  });

  it("accept an upload of exactly what was signed: key, content type and size limit", async () => {
    const key = newKey();
    const { query } = parseUrl(await storage.presignPut(key, { contentType: "image/png", maxBytes: 100 }));

    expect(storage.checkPut(key, query, "image/png")).toEqual({ ok: true });
    expect(storage.checkPut(newKey(), query, "image/png")).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkPut(key, query, "text/html")).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkPut(key, { ...query, max: "999999999" }, "image/png")).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkPut(key, { ...query, expires: String(Number(query.expires) + 3600) }, "image/png")).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("expire after their lifetime", async () => {
    const key = newKey();
    const { query } = parseUrl(await storage.presignGet(key, { downloadName: "plan.png", expiresInSeconds: 60 }));
    clock += 59_000;
    expect(storage.checkGet(key, query)).toEqual({ ok: true });
    clock += 2_000;
    expect(storage.checkGet(key, query)).toEqual({ ok: false, reason: "expired" });
  });

  it("cannot be reused for a download under another name or for an upload", async () => {
    const key = newKey();
    const { query } = parseUrl(await storage.presignGet(key, { downloadName: "plan.png" }));
    expect(storage.checkGet(key, { ...query, name: "invoice.exe" })).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkPut(key, query, "image/png")).toEqual({ ok: false, reason: "invalid" });
  });

  it("cannot have their fields shifted by a newline in the content type, to lift the size limit or the expiry", async () => {
    const key = newKey();
    const { query } = parseUrl(await storage.presignPut(key, { contentType: "text/plain\nx", maxBytes: 100 }));
    const { expires, max, sig } = query as Record<string, string>;

    expect(storage.checkPut(key, { expires, max: `${max}\ntext/plain`, sig }, "x")).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkPut(key, { expires: `${expires}\n${max}`, max: "text/plain", sig }, "x")).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("cannot have their expiry shifted into the download name, and keep expiring", async () => {
    const key = newKey();
    const { query } = parseUrl(await storage.presignGet(key, { downloadName: "plan\n.png", expiresInSeconds: 60 }));
    const { expires, sig } = query as Record<string, string>;
    const shifted = { expires: `${expires}\nplan`, name: ".png", sig };

    expect(storage.checkGet(key, query)).toEqual({ ok: true });
    clock += 3_600_000;
    expect(storage.checkGet(key, shifted)).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkGet(key, query)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse a link whose expiry or size limit is not a whole number rather than leave it open", async () => {
    const key = newKey();
    const unlimited = parseUrl(await storage.presignPut(key, { contentType: "image/png", maxBytes: Number.NaN }));
    const endless = parseUrl(await storage.presignGet(key, { downloadName: "plan.png", expiresInSeconds: Number.NaN }));
    expect(storage.checkPut(key, unlimited.query, "image/png")).toEqual({ ok: false, reason: "invalid" });
    expect(storage.checkGet(key, endless.query)).toEqual({ ok: false, reason: "invalid" });
  });

  it("are not valid when signed with another secret", async () => {
    const key = newKey();
    const other = new LocalDiskStorage({ root, baseUrl: "https://rm.example.com", secret: "another-secret-0123" });
    const { query } = parseUrl(await other.presignGet(key, { downloadName: "plan.png" }));
    expect(storage.checkGet(key, query)).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("files on the local disk", () => {
  it("are stored, described, read back and deleted, and deleting a missing one is no error", async () => {
    const key = newKey();
    await storage.putObject(key, Buffer.from("not really a png"), "image/png");

    expect(await storage.head(key)).toEqual({ size: 16, contentType: "image/png" });
    expect(await text(await storage.getObject(key))).toBe("not really a png");

    await storage.delete(key);
    expect(await storage.head(key)).toBeUndefined();
    await expect(storage.getObject(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    // Clean-ups delete again what a run that died half way already deleted.
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("keep nothing of an upload that outgrows its limit", async () => {
    const key = newKey();
    const body = Readable.from([Buffer.alloc(60), Buffer.alloc(60)]);
    expect(await storage.write(key, body, "image/png", 100)).toBe("too-large");
    expect(await storage.head(key)).toBeUndefined();
  });

  it("refuse keys outside a tenant's areas", async () => {
    await expect(storage.head(`${tenantId}/attachments/../../etc/passwd`)).rejects.toThrow("Not a storage key");
    await expect(storage.presignGet("attachments/x.png", { downloadName: "x.png" })).rejects.toThrow("Not a storage key");
  });
});

describe("streamed puts to the local disk", () => {
  it("write a large object and a small one whole, and leave nothing of a failed stream", async () => {
    await expectStreamedPutContract(storage);
  });
});
