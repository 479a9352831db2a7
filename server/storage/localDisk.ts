import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  DEFAULT_URL_LIFETIME_SECONDS,
  ObjectNotFoundError,
  type ObjectStorage,
  type StoredObject,
  tenantPrefix,
} from "./objectStorage.js";

export type LocalDiskOptions = {
  /** Files live under `{root}/objects/{key}`, their content type under `{root}/meta/{key}.json`. */
  root: string;
  /** The add-on's public base URL: presigned URLs point at its /storage endpoint. */
  baseUrl: string;
  secret: string;
  now?: () => number;
};

/** Query parameters of a presigned URL, as the /storage endpoint receives them. */
export type SignedQuery = { expires?: unknown; max?: unknown; name?: unknown; sig?: unknown };

export type SignatureCheck = { ok: true } | { ok: false; reason: "expired" | "invalid" };

export const LOCAL_STORAGE_PATH = "/storage";

/**
 * The embedded default: files on the local disk, reached through URLs this add-on signs
 * itself (HMAC-SHA256), so the browser code is the same as against S3.
 */
export class LocalDiskStorage implements ObjectStorage {
  private readonly signingKey: Buffer;
  private readonly now: () => number;

  constructor(private readonly options: LocalDiskOptions) {
    // A key of its own, so a URL signature can never stand in for an app token or the reverse.
    this.signingKey = createHmac("sha256", options.secret).update("rmcloud storage urls").digest();
    this.now = options.now ?? Date.now;
  }

  async presignPut(key: string, options: { contentType: string; maxBytes: number; expiresInSeconds?: number }): Promise<string> {
    assertValidKey(key);
    const expires = this.expiresAt(options.expiresInSeconds);
    const max = String(options.maxBytes);
    const sig = this.sign(["PUT", key, expires, max, options.contentType]);
    return this.url(key, { expires, max, sig });
  }

  async presignGet(key: string, options: { downloadName: string; expiresInSeconds?: number }): Promise<string> {
    assertValidKey(key);
    const expires = this.expiresAt(options.expiresInSeconds);
    const sig = this.sign(["GET", key, expires, options.downloadName]);
    return this.url(key, { expires, name: options.downloadName, sig });
  }

  /** The content type is part of the signature: the upload must carry the type it was signed for. */
  checkPut(key: string, query: SignedQuery, contentType: string): SignatureCheck {
    if (!isDigits(query.max)) return { ok: false, reason: "invalid" };
    return this.check(query, ["PUT", key, String(query.expires), query.max, contentType]);
  }

  checkGet(key: string, query: SignedQuery): SignatureCheck {
    return this.check(query, ["GET", key, String(query.expires), String(query.name)]);
  }

  async head(key: string): Promise<StoredObject | undefined> {
    const size = await this.sizeOf(key);
    if (size === undefined) return undefined;
    return { size, contentType: await this.contentTypeOf(key) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async deleteTenantFiles(tenantId: string): Promise<void> {
    const prefix = tenantPrefix(tenantId);
    await rm(path.join(this.options.root, "objects", prefix), { recursive: true, force: true });
    await rm(path.join(this.options.root, "meta", prefix), { recursive: true, force: true });
  }

  async getObject(key: string): Promise<Readable> {
    if ((await this.sizeOf(key)) === undefined) throw new ObjectNotFoundError(key);
    return createReadStream(this.objectPath(key));
  }

  async putObject(key: string, body: Buffer | Uint8Array | string, contentType: string): Promise<void> {
    await this.write(key, Readable.from([Buffer.from(body)]), contentType, Number.POSITIVE_INFINITY);
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<void> {
    await this.write(key, body, contentType, Number.POSITIVE_INFINITY);
  }

  /**
   * Streams an upload to disk. Past `maxBytes` the rest of the body is read and dropped rather
   * than the socket torn down, so the browser receives the 413 instead of a connection reset.
   */
  async write(key: string, body: Readable, contentType: string, maxBytes: number): Promise<"stored" | "too-large"> {
    const target = this.objectPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    await mkdir(path.dirname(this.metaPath(key)), { recursive: true });
    const partial = `${target}.${randomUUID()}.part`;
    let size = 0;
    let tooLarge = false;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) tooLarge = true;
        done(null, tooLarge ? undefined : chunk);
      },
    });
    try {
      await pipeline(body, limit, createWriteStream(partial));
      if (tooLarge) return "too-large";
      await writeFile(this.metaPath(key), JSON.stringify({ contentType }));
      await rename(partial, target);
      return "stored";
    } finally {
      await rm(partial, { force: true });
    }
  }

  private async sizeOf(key: string): Promise<number | undefined> {
    try {
      const stats = await stat(this.objectPath(key));
      return stats.isFile() ? stats.size : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  private async contentTypeOf(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(this.metaPath(key), "utf8")) as { contentType?: unknown };
      if (typeof meta.contentType === "string" && meta.contentType) return meta.contentType;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    return "application/octet-stream";
  }

  private objectPath(key: string): string {
    assertValidKey(key);
    return path.join(this.options.root, "objects", key);
  }

  private metaPath(key: string): string {
    assertValidKey(key);
    return path.join(this.options.root, "meta", `${key}.json`);
  }

  private expiresAt(expiresInSeconds = DEFAULT_URL_LIFETIME_SECONDS): string {
    return String(Math.floor(this.now() / 1000) + expiresInSeconds);
  }

  private url(key: string, query: Record<string, string>): string {
    return `${this.options.baseUrl}${LOCAL_STORAGE_PATH}/${key}?${new URLSearchParams(query)}`;
  }

  /**
   * JSON, not the fields joined by a separator: a content type or file name may contain any
   * separator, and would then let a caller move the field boundaries of a signed URL.
   */
  private sign(parts: string[]): string {
    return createHmac("sha256", this.signingKey).update(JSON.stringify(parts)).digest("base64url");
  }

  private check(query: SignedQuery, parts: string[]): SignatureCheck {
    if (typeof query.sig !== "string" || !isDigits(query.expires)) return { ok: false, reason: "invalid" };
    const expected = Buffer.from(this.sign(parts));
    const given = Buffer.from(query.sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
    // Checked after the signature, so a forged expiry reads as forged, not as expired.
    if (Number(query.expires) * 1000 < this.now()) return { ok: false, reason: "expired" };
    return { ok: true };
  }
}

/** Expiry and size limit are whole numbers: anything else would read as NaN, which no comparison refuses. */
function isDigits(value: unknown): value is string {
  return typeof value === "string" && /^\d+$/.test(value);
}
