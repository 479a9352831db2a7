import { SignJWT, jwtVerify } from "jose";

export type Product = "jira" | "confluence";

/** Who is calling: always taken from a verified token, never from a request field. */
export type AuthContext = {
  tenantId: string;
  accountId: string;
  product: Product;
  clientKey: string;
  /** When the user last signed in through their Atlassian site (seconds since the epoch); refreshing keeps it. */
  signedInAt: number;
};

const ISSUER = "rmcloud";
/** The client refreshes every 1440 minutes (spec section 6); the token outlives that by an hour. */
export const APP_TOKEN_LIFETIME_SECONDS = 25 * 60 * 60;
/**
 * How long refreshes may go on after a sign-in: only the host knows whether the user may still use
 * the site, so after this the client must sign in through it again.
 */
export const SIGN_IN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** A sign-in (Connect or Forge) starts now; a refresh passes on the `signedInAt` of the token it replaces. */
export async function signAppToken(secret: string, auth: Omit<AuthContext, "signedInAt"> & { signedInAt?: number }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signedInAt = auth.signedInAt ?? now;
  // auth_time: OpenID Connect's name for the time the user authenticated.
  return (
    new SignJWT({ tid: auth.tenantId, prd: auth.product, clk: auth.clientKey, auth_time: signedInAt })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setSubject(auth.accountId)
      .setIssuedAt(now)
      // Never past the sign-in's week: the last refresh's token does not add a day to it.
      .setExpirationTime(Math.min(now + APP_TOKEN_LIFETIME_SECONDS, signedInAt + SIGN_IN_LIFETIME_SECONDS))
      .sign(new TextEncoder().encode(secret))
  );
}

/** Returns the caller, or null when the token is missing its claims, expired or not ours. */
export async function verifyAppToken(secret: string, token: string): Promise<AuthContext | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
    });
    const { sub, tid, prd, clk, auth_time, iat } = payload as Record<string, unknown>;
    if (typeof sub !== "string" || typeof tid !== "string" || typeof clk !== "string") return null;
    if (prd !== "jira" && prd !== "confluence") return null;
    // Tokens signed before sign-in times were recorded count from their own issue: they keep working until
    // they expire, and refreshing them stops a week on like any other.
    const signedInAt = auth_time ?? iat;
    if (typeof signedInAt !== "number") return null;
    return { tenantId: tid, accountId: sub, product: prd, clientKey: clk, signedInAt };
  } catch {
    return null;
  }
}
