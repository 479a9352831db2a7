import type { RequestHandler } from "express";

/**
 * API answers carry a site's requirements and the caller's tokens: neither the browser's cache nor
 * a proxy between may keep them (a shared machine's next user, a caching proxy's other clients).
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  next();
};
