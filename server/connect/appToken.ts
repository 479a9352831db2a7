import { SignJWT, jwtVerify } from "jose";

export type Product = "jira" | "confluence";

/** Who is calling: always taken from a verified token, never from a request field. */
export type AuthContext = {
  tenantId: string;
  accountId: string;
  product: Product;
  clientKey: string;
};

const ISSUER = "rmcloud";
/** The client refreshes every 1440 minutes (spec section 6); the token outlives that by an hour. */
export const APP_TOKEN_LIFETIME_SECONDS = 25 * 60 * 60;

export async function signAppToken(secret: string, auth: AuthContext): Promise<string> {
  return new SignJWT({ tid: auth.tenantId, prd: auth.product, clk: auth.clientKey })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setSubject(auth.accountId)
    .setIssuedAt()
    .setExpirationTime(`${APP_TOKEN_LIFETIME_SECONDS}s`)
    .sign(new TextEncoder().encode(secret));
}

/** Returns the caller, or null when the token is missing its claims, expired or not ours. */
export async function verifyAppToken(secret: string, token: string): Promise<AuthContext | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
    });
    const { sub, tid, prd, clk } = payload as Record<string, unknown>;
    if (typeof sub !== "string" || typeof tid !== "string" || typeof clk !== "string") return null;
    if (prd !== "jira" && prd !== "confluence") return null;
    return { tenantId: tid, accountId: sub, product: prd, clientKey: clk };
  } catch {
    return null;
  }
}
