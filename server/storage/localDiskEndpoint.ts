import { pipeline } from "node:stream/promises";
import { type Request, type Response, Router } from "express";
import { ATTACHMENT_TOO_LARGE_MESSAGE } from "../../common/schemas/storage.js";
import { AppError, forbidden } from "../errors.js";
import { LOCAL_STORAGE_PATH, type LocalDiskStorage, type SignatureCheck } from "./localDisk.js";
import { isValidKey } from "./objectStorage.js";

/**
 * What S3 would be for the local-disk driver: PUT and GET on presigned URLs. Mounted before
 * the JSON body parser, since an uploaded .json file must arrive as raw bytes.
 */
export function localDiskEndpoint(storage: LocalDiskStorage): Router {
  const router = Router();

  router.put(`${LOCAL_STORAGE_PATH}/*`, async (req, res, next) => {
    try {
      const key = keyOf(req);
      const contentType = req.get("content-type") ?? "";
      assertSigned(storage.checkPut(key, req.query, contentType));
      const maxBytes = Number(req.query.max);
      if (Number(req.get("content-length")) > maxBytes) {
        refuseTooLarge(req, res, key, maxBytes);
        return;
      }
      if ((await storage.write(key, req, contentType, maxBytes)) === "too-large") {
        refuseTooLarge(req, res, key, maxBytes);
        return;
      }
      res.status(200).end();
    } catch (error) {
      drain(req);
      next(error);
    }
  });

  router.get(`${LOCAL_STORAGE_PATH}/*`, async (req, res, next) => {
    try {
      const key = keyOf(req);
      assertSigned(storage.checkGet(key, req.query));
      const stored = await storage.head(key);
      if (!stored) throw new AppError(404, { Result: "File not found" });
      res.attachment(String(req.query.name));
      // setHeader, not res.set: the type goes out exactly as stored, as S3 sends it, without an added charset.
      res.setHeader("Content-Type", stored.contentType);
      res.set({
        "Content-Length": String(stored.size),
        // Files come from users and are served from our own origin: never let one run as a page.
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Cache-Control": "private, max-age=300",
      });
      await pipeline(await storage.getObject(key), res);
    } catch (error) {
      if (res.headersSent) res.destroy();
      else next(error);
    }
  });

  return router;
}

function keyOf(req: Request): string {
  const key = (req.params as Record<string, string | undefined>)[0] ?? "";
  if (!isValidKey(key)) throw new AppError(404, { Result: "File not found" });
  return key;
}

function assertSigned(check: SignatureCheck): void {
  if (check.ok) return;
  throw forbidden(check.reason === "expired" ? "This link has expired" : "This link is not valid");
}

function refuseTooLarge(req: Request, res: Response, key: string, maxBytes: number): void {
  drain(req);
  const isAttachment = key.split("/")[1] === "attachments";
  const message = isAttachment ? ATTACHMENT_TOO_LARGE_MESSAGE : `File size cannot exceed ${Math.floor(maxBytes / 1048576)}MB`;
  res.status(413).json({ Result: message });
}

/** Reads and drops what the client still sends, so it gets our answer instead of a reset. */
function drain(req: Request): void {
  if (!req.complete) req.resume();
}
