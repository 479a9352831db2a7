import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type AuthContext, verifyAppToken } from "../connect/appToken.js";
import type { Db } from "../db/knex.js";
import { isTenantActive } from "../db/tenantStore.js";
import { unauthorized } from "../errors.js";

declare global {
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** Every /api route but the token exchange: `Authorization: Bearer <app token>` of an installed tenant. */
export function requireAppToken(db: Db, secret: string): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const header = req.get("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized();
      const auth = await verifyAppToken(secret, match[1]);
      if (!auth) throw unauthorized("The token is invalid or has expired");
      if (!(await isTenantActive(db, auth.tenantId))) throw unauthorized("rmCloud is not installed on this site");
      req.auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The verified caller of a request that passed `requireAppToken`. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
