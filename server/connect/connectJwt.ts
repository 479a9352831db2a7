import * as atlassianJwt from "atlassian-jwt";

/** What the host signs instead of a URL hash for tokens from AP.context.getToken(). */
export const CONTEXT_QSH = "context-qsh";

export type ConnectJwtClaims = { iss: string; sub?: string; qsh: string; exp: number; iat?: number };

export type ConnectJwtFailure = "malformed" | "algorithm" | "signature" | "expired" | "future" | "qsh";

/**
 * How far the host's clock may run ahead of ours: a token issued later than this from now is
 * refused (a token minted for later use, or a host clock far off), see docs/decisions.md.
 */
export const CLOCK_SKEW_SECONDS = 60;

export type ConnectJwtResult = { ok: true; claims: ConnectJwtClaims } | { ok: false; reason: ConnectJwtFailure };

/** The issuer (the installation's clientKey) before verification: it names the secret to verify with. */
export function unverifiedIssuer(token: string): string | null {
  try {
    const claims = atlassianJwt.decodeSymmetric(token, "", atlassianJwt.SymmetricAlgorithm.HS256, true);
    return typeof claims?.iss === "string" ? claims.iss : null;
  } catch {
    return null;
  }
}

/** The qsh the host computes for a request, with the `jwt` query parameter left out as Atlassian does. */
export function queryStringHash(method: string, pathAndQuery: string, baseUrl?: string): string {
  return atlassianJwt.createQueryStringHash(atlassianJwt.fromMethodAndUrl(method, pathAndQuery), false, baseUrl);
}

/**
 * Verifies a Connect JWT the host issued for the add-on: HS256 only (so `alg: none` and every other
 * algorithm fail), signed with the installation's shared secret, unexpired, and with a qsh of the
 * signed request (`method` + `pathAndQuery`) or the literal `context-qsh`, and not issued in the
 * future beyond `CLOCK_SKEW_SECONDS`.
 */
export function verifyConnectJwt(
  token: string,
  sharedSecret: string,
  request: { method: string; pathAndQuery: string; baseUrl?: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): ConnectJwtResult {
  let claims: Record<string, unknown>;
  try {
    claims = atlassianJwt.decodeSymmetric(token, "", atlassianJwt.SymmetricAlgorithm.HS256, true);
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    return { ok: false, reason: message.startsWith("Algorithm") ? "algorithm" : "malformed" };
  }
  try {
    atlassianJwt.decodeSymmetric(token, sharedSecret, atlassianJwt.SymmetricAlgorithm.HS256, false);
  } catch {
    return { ok: false, reason: "signature" };
  }
  const { iss, sub, qsh, exp, iat } = claims;
  if (typeof iss !== "string" || typeof qsh !== "string" || typeof exp !== "number") return { ok: false, reason: "malformed" };
  if (sub !== undefined && typeof sub !== "string") return { ok: false, reason: "malformed" };
  if (iat !== undefined && typeof iat !== "number") return { ok: false, reason: "malformed" };
  if (exp <= nowSeconds) return { ok: false, reason: "expired" };
  if (iat !== undefined && iat > nowSeconds + CLOCK_SKEW_SECONDS) return { ok: false, reason: "future" };
  if (qsh !== CONTEXT_QSH && qsh !== queryStringHash(request.method, request.pathAndQuery, request.baseUrl)) {
    return { ok: false, reason: "qsh" };
  }
  return { ok: true, claims: { iss, sub, qsh, exp, iat: typeof iat === "number" ? iat : undefined } };
}

/** How long an app JWT for a host call lives (Atlassian's recommendation: a few minutes). */
export const APP_JWT_LIFETIME_SECONDS = 180;

/** The JWT the add-on sends to Jira/Confluence when it calls their REST API as the app. */
export function signAppJwt(
  appKey: string,
  sharedSecret: string,
  method: string,
  pathAndQuery: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  return atlassianJwt.encodeSymmetric(
    {
      iss: appKey,
      iat: nowSeconds,
      exp: nowSeconds + APP_JWT_LIFETIME_SECONDS,
      qsh: queryStringHash(method, pathAndQuery),
    },
    sharedSecret,
    atlassianJwt.SymmetricAlgorithm.HS256,
  );
}
