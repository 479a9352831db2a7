import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";

/** What a stored file is used for; the middle segment of its key and the `operation` of its attachments row. */
export type StorageArea = "attachments" | "imports" | "exports";

export type StoredObject = { size: number; contentType: string };

/**
 * Object storage behind presigned URLs: the browser moves the bytes straight to and from
 * storage, the API only signs. S3 in production, the local disk on the embedded default.
 */
export interface ObjectStorage {
  /**
   * A URL the browser PUTs the file to, with `Content-Type: contentType`. Storage answers 200 or 204.
   * `maxBytes` is enforced by the local disk at upload time; S3 cannot bound a presigned PUT
   * of unknown length, so callers check `head()` before trusting the size (verifyUploadedAttachment).
   */
  presignPut(key: string, options: { contentType: string; maxBytes: number; expiresInSeconds?: number }): Promise<string>;
  /** A URL that downloads the file as `downloadName`. */
  presignGet(key: string, options: { downloadName: string; expiresInSeconds?: number }): Promise<string>;
  /** Size and type of a stored object, or undefined when nothing was uploaded under that key. */
  head(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The object's bytes as a stream (imports read their CSV this way); throws when missing. */
  getObject(key: string): Promise<Readable>;
  /** Writes an object from the server side (jobs store exports this way, then hand out presignGet). */
  putObject(key: string, body: Buffer | Uint8Array | string, contentType: string): Promise<void>;
  /**
   * Writes an object from a stream of unknown length without holding it in memory (S3: a
   * multipart upload of 5 MiB parts). The object appears only once the stream has ended; a
   * failing stream leaves nothing behind.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  /** Removes every object of one tenant (its purge); running it again removes what a failed run left. */
  deleteTenantFiles(tenantId: string): Promise<void>;
}

/** Presigned URLs live long enough to start an upload or a download, and no longer. */
export const DEFAULT_URL_LIFETIME_SECONDS = 15 * 60;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** The only shape of key we ever sign or touch: no path traversal, always under one tenant. */
const KEY_PATTERN = new RegExp(`^${UUID}/(attachments|imports|exports)/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`);

/**
 * `{tenantId}/{area}/{fileName}`: every key starts with the tenant, and the API signs only
 * keys of the caller's tenant, so no URL it hands out can reach another tenant's object.
 */
export function storageKey(tenantId: string, area: StorageArea, fileName: string): string {
  const key = `${tenantId}/${area}/${fileName}`;
  assertValidKey(key);
  return key;
}

/** The prefix every object of one tenant is stored under (storageKey); refuses what is not a tenant id. */
export function tenantPrefix(tenantId: string): string {
  if (!new RegExp(`^${UUID}$`).test(tenantId)) throw new Error(`Not a tenant id: ${JSON.stringify(tenantId)}`);
  return `${tenantId}/`;
}

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Not a storage key of ours: ${JSON.stringify(key)}`);
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object under ${key}`);
    this.name = "ObjectNotFoundError";
  }
}

/** Where the rows of `attachments` keep their bytes, by their `operation`. */
export function areaOf(operation: "attachment" | "import" | "export"): StorageArea {
  return `${operation}s`;
}

/** A fresh name to store a file under: a UUID, keeping the original's extension when it is a plain one. */
export function newStoredFileName(originalFileName: string): string {
  const extension = path.extname(originalFileName).toLowerCase();
  return `${randomUUID()}${/^\.[a-z0-9]{1,16}$/.test(extension) ? extension : ""}`;
}
