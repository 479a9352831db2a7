import cors from "cors";
import type { Request, RequestHandler } from "express";
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import type { Db } from "../db/knex.js";
import { findInstallationByClientKey } from "../db/installationStore.js";
import { forbidden, unauthorized } from "../errors.js";
import { signAppToken } from "./appToken.js";

/** What Forge signs into every remote invocation (Forge remote essentials: "Verifying remote requests"). */
export const FORGE_INVOCATION_ISSUER = "forge/invocation-token";
const APP_ARI_PREFIX = "ari:cloud:ecosystem::app/";

/** The verified claims of a Forge invocation token that rmCloud uses. */
export type ForgeInvocation = {
  appId: string;
  installationId: string;
  /** The signed-in user; absent for invocations without one. */
  accountId?: string;
  apiBaseUrl?: string;
  /** `false` when the site's license is not active (production installations of a paid app). */
  licenseActive?: boolean;
};

export type ForgeInvocationFailure = "missing" | "malformed" | "expired" | "audience" | "signature";

export type ForgeInvocationResult = { ok: true; invocation: ForgeInvocation } | { ok: false; reason: ForgeInvocationFailure };

const FAILURE_MESSAGES: Record<ForgeInvocationFailure, string> = {
  missing: "A Forge invocation token is required: Authorization: Bearer <token>",
  malformed: "The Forge invocation token is malformed",
  expired: "The Forge invocation token has expired",
  audience: "The Forge invocation token was not issued for rmCloud",
  signature: "The Forge invocation token's signature is invalid",
};

/** ACE names the app either way: the bare id of manifest.yml or its full ARI. */
export const appAriOf = (appId: string) => (appId.startsWith(APP_ARI_PREFIX) ? appId : `${APP_ARI_PREFIX}${appId}`);

/**
 * Verifies Forge invocation tokens the way atlassian-connect-express's `authenticateForge()` does
 * (RS256 from Forge's JWKS, issuer `forge/invocation-token`, audience our app's ARI), with two
 * differences that matter to a server taking every issue view: the key set is fetched once and
 * cached (ACE fetches it on each request), and its URL is configuration (ACE hard-codes Atlassian's
 * CDN), so tests sign with a local key server as they do for install callbacks.
 */
export function forgeInvocationVerifier(options: { appIds: readonly string[]; jwksUrl: string }) {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl));
  const audience = options.appIds.map(appAriOf);
  return async (token: string): Promise<ForgeInvocationResult> => {
    if (audience.length === 0) return { ok: false, reason: "audience" };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: FORGE_INVOCATION_ISSUER, audience, algorithms: ["RS256"] }));
    } catch (error) {
      return { ok: false, reason: failureOf(error) };
    }
    const app = payload.app as
      | { id?: unknown; installationId?: unknown; apiBaseUrl?: unknown; license?: { isActive?: unknown } }
      | undefined;
    if (typeof app?.installationId !== "string" || !app.installationId) return { ok: false, reason: "malformed" };
    return {
      ok: true,
      invocation: {
        appId: typeof payload.aud === "string" ? payload.aud : String(payload.aud?.[0]),
        installationId: app.installationId,
        accountId: typeof payload.principal === "string" && payload.principal ? payload.principal : undefined,
        apiBaseUrl: typeof app.apiBaseUrl === "string" ? app.apiBaseUrl : undefined,
        licenseActive: typeof app.license?.isActive === "boolean" ? app.license.isActive : undefined,
      },
    };
  };
}

function failureOf(error: unknown): ForgeInvocationFailure {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === "aud") return "audience";
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return "signature";
  return "malformed";
}

type ForgeRequest = Request & { forgeInvocation?: ForgeInvocation; context?: Record<string, unknown> };

/**
 * Authenticates a request from Forge (invokeRemote, a remote module) and hands ACE the invocation
 * as `req.context.forge`, the shape its `associateConnect()` reads to find the Connect installation.
 */
export function requireForgeInvocation(verify: ReturnType<typeof forgeInvocationVerifier>): RequestHandler {
  return (req: ForgeRequest, _res, next) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1];
    const verified = token ? verify(token) : Promise.resolve<ForgeInvocationResult>({ ok: false, reason: "missing" });
    verified.then((result) => {
      if (!result.ok) return next(unauthorized(FAILURE_MESSAGES[result.reason]));
      req.forgeInvocation = result.invocation;
      req.context = { forge: { app: { installationId: result.invocation.installationId }, principal: result.invocation.accountId } };
      next();
    }, next);
  };
}

/**
 * The sign-in of a Forge page (docs/decisions.md, Connect on Forge): a verified invocation from the
 * site's Forge installation becomes rmCloud's app token for the tenant of the Connect installation
 * that Forge installation carries, so the data is the same whichever way the page was opened.
 */
export async function exchangeForgeInvocation(
  db: Db,
  appTokenSecret: string,
  invocation: ForgeInvocation,
  clientKey: string | undefined,
): Promise<string> {
  const installation = clientKey ? await findInstallationByClientKey(db, clientKey) : undefined;
  if (!installation?.enabled || !installation.tenantActive) throw unauthorized("rmCloud is not installed on this site");
  if (!invocation.accountId) throw unauthorized("Sign in to your Atlassian site to use rmCloud");
  if (invocation.licenseActive === false) throw forbidden("license");
  return signAppToken(appTokenSecret, {
    tenantId: installation.tenantId,
    accountId: invocation.accountId,
    product: installation.product,
    clientKey: installation.clientKey,
  });
}

export function forgeInvocationOf(req: Request): ForgeInvocation {
  const invocation = (req as ForgeRequest).forgeInvocation;
  if (!invocation) throw unauthorized();
  return invocation;
}

/**
 * Custom UI runs on Forge's CDN, a cross origin: our API answers the fetches of rmCloud's own Forge
 * pages (FORGE_CUSTOM_UI_ORIGINS; Bearer tokens, no cookies), and no other app's on the same CDN.
 */
export function allowForgeCustomUi(origins: string[]): RequestHandler {
  return cors({
    origin: origins,
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Authorization", "Content-Type", "Accept"],
    maxAge: 600,
  });
}
