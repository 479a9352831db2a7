import contentDisposition from "content-disposition";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Config } from "../config.js";
import {
  assertValidKey,
  DEFAULT_URL_LIFETIME_SECONDS,
  ObjectNotFoundError,
  type ObjectStorage,
  type StoredObject,
  tenantPrefix,
} from "./objectStorage.js";

/**
 * The SDK waits forever by default, and head() runs inside API requests: a store that stops
 * answering must fail them instead of holding them. The request timeout runs from sending until the
 * response headers (a download's body streams on after it); each of the SDK's three tries gets it.
 */
const S3_TIMEOUTS = { connectionTimeout: 3_000, requestTimeout: 15_000 };

/**
 * Any S3-protocol store (AWS S3, MinIO, ...). Credentials come from the standard AWS chain
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profiles, instance or task roles); the bucket
 * needs a CORS rule allowing PUT and GET from the add-on's origin, since the browser talks to it directly.
 */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  /** Signs the URLs browsers use: on `publicEndpoint` when the server reaches the store elsewhere. */
  private readonly presigner: S3Client;
  private readonly bucket: string;

  constructor(settings: Config["storage"], timeouts: typeof S3_TIMEOUTS = S3_TIMEOUTS) {
    this.bucket = settings.bucket;
    const clientOn = (endpoint: string | undefined) =>
      new S3Client({
        region: settings.region,
        endpoint,
        forcePathStyle: settings.forcePathStyle,
        // By default the SDK would sign a CRC32 of the empty body into presigned PUT URLs,
        // and every real upload would then fail its checksum.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        // Without throwOnRequestTimeout the SDK only logs a warning when the request timeout passes.
        requestHandler: { ...timeouts, throwOnRequestTimeout: true },
      });
    this.client = clientOn(settings.endpoint);
    this.presigner = settings.publicEndpoint ? clientOn(settings.publicEndpoint) : this.client;
  }

  /**
   * A presigned PUT cannot bound the size of a body it does not know yet, so `maxBytes` is
   * not signed here; the size is checked with head() before the upload is used.
   */
  async presignPut(key: string, options: { contentType: string; maxBytes: number; expiresInSeconds?: number }): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(this.presigner, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType }), {
      expiresIn: options.expiresInSeconds ?? DEFAULT_URL_LIFETIME_SECONDS,
    });
  }

  async presignGet(key: string, options: { downloadName: string; expiresInSeconds?: number }): Promise<string> {
    assertValidKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(options.downloadName),
    });
    return getSignedUrl(this.presigner, command, { expiresIn: options.expiresInSeconds ?? DEFAULT_URL_LIFETIME_SECONDS });
  }

  async head(key: string): Promise<StoredObject | undefined> {
    assertValidKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? "application/octet-stream" };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A page of the listing at a time (at most 1000 keys, DeleteObjects' limit too). */
  async deleteTenantFiles(tenantId: string): Promise<void> {
    const prefix = tenantPrefix(tenantId);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (objects.length > 0) {
        const deleted = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        const failed = deleted.Errors ?? [];
        if (failed.length > 0)
          throw new Error(`Could not delete ${failed.length} objects under ${prefix}: ${failed[0]?.Code} ${failed[0]?.Message}`);
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async getObject(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (object.Body instanceof Readable) return object.Body;
      throw new Error(`S3 answered ${key} without a readable body`);
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async putObject(key: string, body: Buffer | Uint8Array | string, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  /**
   * A multipart upload fed part by part as the stream produces bytes: memory holds one part
   * (S3's 5 MiB minimum) however large the object. A stream shorter than one part is a plain put;
   * a failure aborts the upload, so no parts are left billed and no object appears.
   */
  async putStream(key: string, body: Readable, contentType: string): Promise<void> {
    assertValidKey(key);
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    const sendPart = async (bytes: Buffer) => {
      if (!uploadId) {
        const created = await this.client.send(
          new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const part = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes }),
      );
      parts.push({ ETag: part.ETag, PartNumber });
    };
    try {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= MULTIPART_PART_BYTES) {
          await sendPart(Buffer.concat(pending, pendingBytes));
          pending = [];
          pendingBytes = 0;
        }
      }
      const rest = Buffer.concat(pending, pendingBytes);
      if (!uploadId) {
        await this.putObject(key, rest, contentType);
        return;
      }
      if (rest.length > 0) await sendPart(rest);
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw error;
    }
  }
}

/** S3's smallest part but the last. */
export const MULTIPART_PART_BYTES = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey");
}

/**
 * RFC 6266 (the content-disposition package): an ASCII fallback plus the UTF-8 name whenever the
 * name is not plain ASCII, so any original file name survives the download.
 */
function attachmentDisposition(fileName: string): string {
  return contentDisposition(fileName, { fallback: fileName.replace(/[^\x20-\x7e]/g, "_") });
}
