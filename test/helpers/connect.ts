import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as atlassianJwt from "atlassian-jwt";
import request from "supertest";
import { queryStringHash } from "../../server/connect/connectJwt.js";
import { CONFLUENCE_APP_KEY, JIRA_APP_KEY } from "../../server/connect/modules.js";
import type { AppDeps } from "../../server/deps.js";
import { createTestApp, type TestContext, testConfig } from "./app.js";

/** Atlassian's install-key CDN in miniature: GET /{kid} answers that key's PEM public key. */
export type KeyServer = { url: string; kid: string; privateKey: string; close: () => Promise<void> };

export async function startKeyServer(): Promise<KeyServer> {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = `kid-${randomUUID()}`;
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const server = createServer((req, res) => {
    if (req.url === `/${kid}`) {
      res.writeHead(200, { "Content-Type": "text/plain" }).end(publicPem);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    kid,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The add-on on a fresh database, verifying installs against `keys`. */
export function createConnectTestApp(keys: KeyServer, overrides: Partial<AppDeps> = {}): Promise<TestContext> {
  return createTestApp({ config: { ...testConfig(), connectKeysCdnUrl: keys.url }, ...overrides });
}

/** A lifecycle JWT as Atlassian signs it: RS256 with `kid`, `aud` = the add-on's base URL, qsh of POST {path}, a `jti` of its own. */
export function signLifecycleJwt(
  keys: Pick<KeyServer, "kid" | "privateKey">,
  claims: { clientKey: string; aud: string; path: string },
): string {
  const now = Math.floor(Date.now() / 1000);
  return atlassianJwt.encodeAsymmetric(
    { iss: claims.clientKey, aud: [claims.aud], iat: now, exp: now + 180, qsh: queryStringHash("POST", claims.path), jti: randomUUID() },
    keys.privateKey,
    atlassianJwt.AsymmetricAlgorithm.RS256,
    { kid: keys.kid },
  );
}

export type InstalledSite = {
  product: "jira" | "confluence";
  clientKey: string;
  sharedSecret: string;
  /** The product's base URL (Confluence: the site URL + /wiki). */
  baseUrl: string;
  siteUrl: string;
};

/** Installs rmCloud on a site's Jira (or Confluence) through the signed `installed` callback. */
export async function installSite(
  ctx: TestContext,
  keys: KeyServer,
  site: {
    siteUrl?: string;
    product?: "jira" | "confluence";
    clientKey?: string;
    sharedSecret?: string;
    installationId?: string;
    cloudId?: string;
  } = {},
): Promise<InstalledSite> {
  const product = site.product ?? "jira";
  const siteUrl = site.siteUrl ?? `https://site-${randomUUID().slice(0, 8)}.atlassian.net`;
  const installed: InstalledSite = {
    product,
    siteUrl,
    baseUrl: product === "confluence" ? `${siteUrl}/wiki` : siteUrl,
    clientKey: site.clientKey ?? `${product}:${randomUUID()}`,
    sharedSecret: site.sharedSecret ?? randomUUID(),
  };
  const extra = {
    ...(site.installationId ? { installationId: site.installationId } : {}),
    ...(site.cloudId ? { cloudId: site.cloudId } : {}),
  };
  const res = await postLifecycle(ctx, keys, installed, "installed", extra);
  if (res.status !== 204) throw new Error(`install failed: ${res.status} ${res.text}`);
  return installed;
}

export function postLifecycle(
  ctx: TestContext,
  keys: Pick<KeyServer, "kid" | "privateKey">,
  site: InstalledSite,
  eventType: "installed" | "uninstalled",
  /** More payload fields, e.g. the `installationId` of a Connect-on-Forge install. */
  extra: Record<string, unknown> = {},
  /** The callback's signed token; a new one unless a test replays one. */
  jwt = signLifecycleJwt(keys, { clientKey: site.clientKey, aud: ctx.deps.config.baseUrl, path: `/${eventType}` }),
) {
  return request(ctx.app)
    .post(`/${eventType}`)
    .set("Authorization", `JWT ${jwt}`)
    .send({
      key: site.product === "confluence" ? CONFLUENCE_APP_KEY : JIRA_APP_KEY,
      clientKey: site.clientKey,
      sharedSecret: site.sharedSecret,
      baseUrl: site.baseUrl,
      displayUrl: site.baseUrl,
      productType: site.product,
      description: "Atlassian Cloud site",
      eventType,
      serverVersion: "100",
      pluginsVersion: "1001.0.0",
      ...extra,
    });
}

/** The Connect JWT a host puts on an iframe URL (or `context-qsh` for AP.context.getToken). */
export function signConnectJwt(
  site: Pick<InstalledSite, "clientKey" | "sharedSecret">,
  page: { method?: string; fullPath: string; accountId?: string; expiresIn?: number; issuedIn?: number; qsh?: string },
): string {
  const now = Math.floor(Date.now() / 1000) + (page.issuedIn ?? 0);
  return atlassianJwt.encodeSymmetric(
    {
      iss: site.clientKey,
      sub: page.accountId ?? "557058:connect-user",
      iat: now,
      exp: now + (page.expiresIn ?? 180),
      qsh: page.qsh ?? queryStringHash(page.method ?? "GET", page.fullPath),
    },
    site.sharedSecret,
  );
}

/** Signs in through POST /api/exchange-token as the SPA does; answers the supertest response. */
export function exchangeToken(
  ctx: TestContext,
  site: Pick<InstalledSite, "clientKey" | "sharedSecret">,
  page: { fullPath: string; product?: "jira" | "confluence"; accountId?: string },
) {
  return request(ctx.app)
    .post("/api/exchange-token")
    .set("Authorization", `JWT ${signConnectJwt(site, page)}`)
    .send({ fullPath: page.fullPath, method: "GET", product: page.product ?? "jira" });
}
