import path from "node:path";
import { Readable } from "node:stream";
import type { Express } from "express";
import type { Config } from "../config.js";
import { AppError } from "../errors.js";
import { LocalDiskStorage } from "./localDisk.js";
import { localDiskEndpoint } from "./localDiskEndpoint.js";
import { ObjectNotFoundError, type ObjectStorage } from "./objectStorage.js";
import { S3Storage } from "./s3.js";

export type { ObjectStorage } from "./objectStorage.js";

/** STORAGE_DRIVER=s3 in production; the local disk under DATA_DIR otherwise. */
export function createObjectStorage(config: Config): ObjectStorage {
  if (config.storage.driver === "s3") return unreachableAs503(new S3Storage(config.storage));
  return unreachableAs503(
    new LocalDiskStorage({
      root: path.join(config.dataDir, "storage"),
      baseUrl: config.baseUrl,
      secret: config.appTokenSecret,
    }),
  );
}

export const STORAGE_UNREACHABLE_MESSAGE = "The file store is not reachable. Please try again later.";

/**
 * The store failing for a reason of its own (S3 unreachable or refusing, a disk gone, full or
 * read-only): 503 with the spec's body rather than a 500, and a job tries again (only a 4xx AppError
 * ends a job at once), failing with this message once its tries are spent. The driver's error is its cause.
 */
export class StorageUnreachableError extends AppError {
  constructor(cause: unknown) {
    super(503, { Result: STORAGE_UNREACHABLE_MESSAGE });
    this.name = "StorageUnreachableError";
    this.cause = cause;
  }
}

/** The calls that reach the store; signing a URL and checking one are computed here. */
const REACHING_THE_STORE = new Set<PropertyKey>(["head", "delete", "deleteTenantFiles", "getObject", "putObject", "putStream", "write"]);

/**
 * The driver with every failure of the store itself turned into StorageUnreachableError; a missing
 * object (ObjectNotFoundError) and our own refusals (AppError) pass unchanged. Still an instance of
 * its driver's class (the local disk serves its URLs itself).
 */
export function unreachableAs503<S extends ObjectStorage>(storage: S): S {
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || !REACHING_THE_STORE.has(property)) return value;
      return async (...args: unknown[]) => {
        // A body that fails (an export whose Jira reads failed half way) is not the store failing.
        let bodyFailure: unknown;
        for (const arg of args) if (arg instanceof Readable) arg.once("error", (error) => (bodyFailure ??= error));
        try {
          return await value.apply(target, args);
        } catch (error) {
          if (bodyFailure !== undefined || error instanceof ObjectNotFoundError || error instanceof AppError) throw bodyFailure ?? error;
          throw new StorageUnreachableError(error);
        }
      };
    },
  });
}

/** The local disk serves its presigned URLs itself; S3 needs nothing from us. */
export function mountStorageEndpoint(app: Express, storage: ObjectStorage): void {
  if (storage instanceof LocalDiskStorage) app.use(localDiskEndpoint(storage));
}
