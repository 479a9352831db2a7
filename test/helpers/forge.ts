import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, type JWK, SignJWT } from "jose";
import { appAriOf, FORGE_INVOCATION_ISSUER } from "../../server/connect/forgeRemote.js";

/** Forge's JWKS endpoint in miniature: GET /.well-known/jwks.json answers the signing key. */
export type ForgeKeys = {
  jwksUrl: string;
  kid: string;
  privateKey: CryptoKey | import("node:crypto").KeyObject;
  close: () => Promise<void>;
};

export async function startForgeJwksServer(): Promise<ForgeKeys> {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = `forge-${randomUUID()}`;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const server = createServer((req, res) => {
    if (req.url === "/.well-known/jwks.json")
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    kid,
    privateKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A Forge invocation token as Forge signs it for a remote (Forge remote essentials): RS256 with the
 * key's `kid`, issuer `forge/invocation-token`, audience the app's ARI, the installation under `app`
 * and the user as `principal`.
 */
export function signForgeInvocationToken(
  keys: Pick<ForgeKeys, "kid" | "privateKey">,
  claims: { appId: string; installationId: string; accountId?: string; expiresIn?: number; licenseActive?: boolean },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    app: {
      id: appAriOf(claims.appId),
      installationId: claims.installationId,
      apiBaseUrl: "https://api.atlassian.com/ex/jira/cloud-id",
      environment: { type: "PRODUCTION", id: randomUUID() },
      module: { type: "jira:issuePanel", key: "rmcloud-forge-issue-panel" },
      ...(claims.licenseActive === undefined ? {} : { license: { isActive: claims.licenseActive } }),
    },
    context: { cloudId: "cloud-id", moduleKey: "rmcloud-forge-issue-panel" },
    ...(claims.accountId ? { principal: claims.accountId } : {}),
  })
    .setProtectedHeader({ alg: "RS256", kid: keys.kid })
    .setIssuer(FORGE_INVOCATION_ISSUER)
    .setAudience(appAriOf(claims.appId))
    .setIssuedAt(now - 5)
    .setNotBefore(now - 5)
    .setExpirationTime(now + (claims.expiresIn ?? 300))
    .setJti(randomUUID())
    .sign(keys.privateKey);
}
