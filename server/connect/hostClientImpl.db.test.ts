import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as atlassianJwt from "atlassian-jwt";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestContext } from "../../test/helpers/app.js";
import { createConnectTestApp, type InstalledSite, installSite, type KeyServer, startKeyServer } from "../../test/helpers/connect.js";
import { queryStringHash } from "./connectJwt.js";
import type { HostClient } from "./hostClient.js";
import { createHostClient, HostCallError } from "./hostClientImpl.js";

/** A stand-in Jira that checks the app JWT the way Jira does and echoes what it received. */
let host: Server;
let hostUrl: string;
let keys: KeyServer;
let ctx: TestContext;
let site: InstalledSite;
let client: HostClient;
let tenantId: string;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
  });
}

beforeAll(async () => {
  host = createServer(async (req, res) => {
    const body = await readBody(req);
    const jwt = /^JWT (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    let claims: Record<string, unknown>;
    try {
      claims = atlassianJwt.decodeSymmetric(jwt, site.sharedSecret, atlassianJwt.SymmetricAlgorithm.HS256);
    } catch {
      res.writeHead(401, { "Content-Type": "application/json" }).end('{"errorMessages":["bad jwt"]}');
      return;
    }
    if (req.url?.startsWith("/slow")) return;
    if (req.url?.startsWith("/missing")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"errorMessages":["Issue does not exist"]}');
      return;
    }
    const qshMatches = claims.qsh === queryStringHash(req.method ?? "", req.url ?? "");
    res
      .writeHead(201, { "Content-Type": "application/json" })
      .end(JSON.stringify({ claims, qshMatches, body: body ? JSON.parse(body) : null }));
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  keys = await startKeyServer();
  ctx = await createConnectTestApp(keys);
  site = await installSite(ctx, keys, { siteUrl: hostUrl });
  tenantId = (await ctx.deps.db("tenants").where({ site_url: hostUrl }).first()).tenant_id;
  client = createHostClient(ctx.deps.db, pino({ level: "silent" }), 500);
});
afterAll(async () => {
  host.closeAllConnections();
  await new Promise<void>((resolve) => host.close(() => resolve()));
  await ctx.destroy();
  await keys.close();
});

type Echo = { claims: Record<string, unknown>; qshMatches: boolean; body: unknown };

describe("calling the site's Jira as the app", () => {
  it("signs the call with the installation's secret, the app key and the call's qsh", async () => {
    const answer = await client.call<Echo>(tenantId, "jira", {
      method: "POST",
      path: "/rest/api/3/issue/10001/comment?notifyUsers=false",
      body: { body: "Linked to REQ-1" },
    });
    expect(answer.qshMatches).toBe(true);
    expect(answer.body).toEqual({ body: "Linked to REQ-1" });
    const { iss, iat, exp } = answer.claims as { iss: string; iat: number; exp: number };
    expect(iss).toBe("rmcloud");
    expect(exp - iat).toBe(180);
  });

  it("rejects with the host's status and answer on a non-2xx", async () => {
    const failure = await client.call(tenantId, "jira", { method: "GET", path: "/missing/10001" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HostCallError);
    expect(failure).toMatchObject({ status: 404, body: '{"errorMessages":["Issue does not exist"]}' });
  });

  it("gives up on a host that does not answer in time", async () => {
    const failure = await client.call(tenantId, "jira", { method: "GET", path: "/slow" }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 504 });
  });

  it("refuses to call a product the site has not installed", async () => {
    const failure = await client
      .call(tenantId, "confluence", { method: "GET", path: "/rest/api/content" })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 404 });
  });
});
