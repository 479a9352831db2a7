import path from "node:path";
import type { Express } from "express";
import type { Config } from "../config.js";
import { LocalDiskStorage } from "./localDisk.js";
import { localDiskEndpoint } from "./localDiskEndpoint.js";
import type { ObjectStorage } from "./objectStorage.js";
import { S3Storage } from "./s3.js";

export type { ObjectStorage } from "./objectStorage.js";

/** STORAGE_DRIVER=s3 in production; the local disk under DATA_DIR otherwise. */
export function createObjectStorage(config: Config): ObjectStorage {
  if (config.storage.driver === "s3") return new S3Storage(config.storage);
  return new LocalDiskStorage({
    root: path.join(config.dataDir, "storage"),
    baseUrl: config.baseUrl,
    secret: config.appTokenSecret,
  });
}

/** The local disk serves its presigned URLs itself; S3 needs nothing from us. */
export function mountStorageEndpoint(app: Express, storage: ObjectStorage): void {
  if (storage instanceof LocalDiskStorage) app.use(localDiskEndpoint(storage));
}
