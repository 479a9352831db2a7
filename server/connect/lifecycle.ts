import { createHash } from "node:crypto";
import type { Request } from "express";
import { decodeJwt } from "jose";
import { unauthorized } from "../errors.js";
import type { LifecycleToken } from "../services/installations/installations.js";

/**
 * The JWT that signed a lifecycle callback ACE has verified. One without an expiry is refused:
 * it could not be forgotten, nor remembered for ever.
 */
export function lifecycleTokenOf(req: Request): LifecycleToken {
  const token =
    /^JWT\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1] ?? (typeof req.query.jwt === "string" ? req.query.jwt : undefined);
  const exp = token ? decodeJwt(token).exp : undefined;
  if (!token || exp === undefined) throw unauthorized("The lifecycle callback's token has no expiry");
  return { sha256: createHash("sha256").update(token).digest("hex"), expiresAt: new Date(exp * 1000) };
}
