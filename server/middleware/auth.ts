import type { NextFunction, Request, RequestHandler, Response } from "express";
import { decodeJwt } from "jose";
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
 * How long this process trusts that an installation is still installed without asking the
 * database. An uninstall handled by this process takes effect at once (`forgetInstallationsOf`);
 * one handled by another replica within this bound (docs/decisions.md).
 */
export const INSTALLATION_CHECK_TTL_MS = 5_000;
/** Beyond this many entries a cache starts over: a bound on memory, not a tuning knob. */
const MAX_ENTRIES = 10_000;

/** A map whose entries expire; full means cleared, which only costs a re-check. */
class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, until: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, until });
  }

  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }
}

/** Installations found open, by tenant and clientKey (only open ones: a refusal is always re-checked). */
const openInstallations = new ExpiringMap<true>();
const installationKey = (tenantId: string, clientKey: string) => `${tenantId} ${clientKey}`;

/** The uninstall and install paths call this after they commit, so this process sees the change at once. */
export function forgetInstallationsOf(tenantId: string): void {
  openInstallations.deleteWhere((key) => key.startsWith(`${tenantId} `));
}

async function verifiedToken(
  verifiedTokens: ExpiringMap<AuthContext>,
  secret: string,
  token: string,
  now: number,
): Promise<AuthContext | null> {
  const cached = verifiedTokens.get(token, now);
  if (cached) return cached;
  const auth = await verifyAppToken(secret, token);
  const exp = auth ? decodeJwt(token).exp : undefined;
  if (auth && exp !== undefined) verifiedTokens.set(token, auth, exp * 1000);
  return auth;
}

async function installationOpen(db: Db, auth: AuthContext, now: number): Promise<boolean> {
  const key = installationKey(auth.tenantId, auth.clientKey);
  if (openInstallations.get(key, now)) return true;
  const open = await isInstallationOpen(db, auth.tenantId, auth.clientKey);
  if (open) openInstallations.set(key, true, now + INSTALLATION_CHECK_TTL_MS);
  return open;
}

/**
 * Every /api route but the token exchange: `Authorization: Bearer <app token>` issued by an
 * installation that is still installed, on a site that is still open.
 */
export function requireAppToken(db: Db, secret: string): RequestHandler {
  /** Verified app tokens by their text until they expire: jose's HS256 check costs about 0.2 ms. */
  const verifiedTokens = new ExpiringMap<AuthContext>();
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const header = req.get("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized();
      const now = Date.now();
      const auth = await verifiedToken(verifiedTokens, secret, match[1], now);
      if (!auth) throw unauthorized("The token is invalid or has expired");
      if (!(await installationOpen(db, auth, now))) throw unauthorized("rmCloud is not installed on this site");
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
