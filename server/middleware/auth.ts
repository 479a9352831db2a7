import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type AuthContext, verifyAppToken } from "../connect/appToken.js";
import type { Db } from "../db/knex.js";
import { isInstallationOpen } from "../db/installationStore.js";
import { unauthorized } from "../errors.js";

declare global {
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/**
 * Every /api route but the token exchange: `Authorization: Bearer <app token>` issued by an
 * installation that is still installed, on a site that is still open.
 */
export function requireAppToken(db: Db, secret: string): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const header = req.get("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized();
      const auth = await verifyAppToken(secret, match[1]);
      if (!auth) throw unauthorized("The token is invalid or has expired");
      if (!(await isInstallationOpen(db, auth.tenantId, auth.clientKey))) {
        throw unauthorized("rmCloud is not installed on this site");
      }
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
