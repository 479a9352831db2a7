import { decodeJwt, SignJWT } from "jose";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestContext } from "../../../test/helpers/app.js";
import {
  createConnectTestApp,
  exchangeToken,
  type InstalledSite,
  installSite,
  type KeyServer,
  postLifecycle,
  signConnectJwt,
  startKeyServer,
} from "../../../test/helpers/connect.js";
import { type AuthContext, signAppToken, verifyAppToken } from "../../connect/appToken.js";
import { CLOCK_SKEW_SECONDS } from "../../connect/connectJwt.js";
import type { HostCall } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { isLicenseCheck, licenseAnswer } from "../../../test/helpers/fakeJira.js";

/** Sites (tenant ids) whose license the host says is inactive, and sites the host cannot be asked about. */
const unlicensed = new Set<string>();
const unreachable = new Set<string>();

let keys: KeyServer;
let ctx: TestContext;
let siteA: InstalledSite;
let siteAConfluence: InstalledSite;
let siteB: InstalledSite;
beforeAll(async () => {
  keys = await startKeyServer();
  ctx = await createConnectTestApp(keys, {
    hostClient: {
      call: async <T>(tenantId: string, _product: string, call: HostCall): Promise<T> => {
        if (!isLicenseCheck(call)) throw new Error(`unexpected host call ${call.path}`);
        if (unreachable.has(tenantId)) throw new HostCallError(502, "", "unreachable");
        return licenseAnswer(call, !unlicensed.has(tenantId)) as T;
      },
    },
  });
  siteA = await installSite(ctx, keys, { siteUrl: "https://alpha.atlassian.net" });
  siteAConfluence = await installSite(ctx, keys, { siteUrl: "https://alpha.atlassian.net", product: "confluence" });
  siteB = await installSite(ctx, keys, { siteUrl: "https://beta.atlassian.net" });
});
afterAll(async () => {
  await ctx.destroy();
  await keys.close();
});

const projectPage = "/authenticate/requirements?projectId=10000&projectKey=DEMO&lic=active&xdm_e=https%3A%2F%2Falpha.atlassian.net";
const macroPage = "/authenticate/confluence-insert-requirements-macro?contentId=65537&lic=active";

const exchange = (jwt: string, body: Record<string, unknown> = { fullPath: projectPage, method: "GET", product: "jira" }) =>
  request(ctx.app).post("/api/exchange-token").set("Authorization", `JWT ${jwt}`).send(body);

async function tokenOf(site: InstalledSite, accountId = "557058:alice"): Promise<string> {
  const res = await exchangeToken(ctx, site, { fullPath: projectPage, product: site.product, accountId });
  expect(res.status).toBe(200);
  return res.body.token;
}

describe("POST /api/exchange-token", () => {
  it("turns a Jira page's Connect JWT into rmCloud's token for that site and user", async () => {
    const res = await exchangeToken(ctx, siteA, { fullPath: projectPage, accountId: "557058:alice" });
    expect(res.status).toBe(200);
    const auth = await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token);
    const tenant = await ctx.deps.db("tenants").where({ site_url: siteA.siteUrl }).first();
    expect(auth).toEqual({
      tenantId: tenant.tenant_id,
      accountId: "557058:alice",
      product: "jira",
      clientKey: siteA.clientKey,
      signedInAt: expect.any(Number),
    });
  });

  it("signs in a Confluence macro to the same site's tenant", async () => {
    const res = await exchangeToken(ctx, siteAConfluence, { fullPath: macroPage, product: "confluence", accountId: "557058:alice" });
    expect(res.status).toBe(200);
    const auth = await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token);
    const tenant = await ctx.deps.db("tenants").where({ site_url: siteA.siteUrl }).first();
    expect(auth).toMatchObject({ tenantId: tenant.tenant_id, product: "confluence", clientKey: siteAConfluence.clientKey });
  });

  it("accepts a context-qsh token from AP.context.getToken", async () => {
    const res = await exchange(signConnectJwt(siteA, { fullPath: projectPage, qsh: "context-qsh" }));
    expect(res.status).toBe(200);
  });

  it("answers 403 license when the page says the site has no license", async () => {
    const unlicensed = projectPage.replace("lic=active", "lic=none");
    const res = await exchangeToken(ctx, siteA, { fullPath: unlicensed });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ Result: "license" });
  });

  it("takes the license from the host when the token does not sign the page address: a context token's lic=active counts for nothing", async () => {
    const site = await installSite(ctx, keys);
    const tenantId = (await ctx.deps.db("tenants").where({ site_url: site.siteUrl }).first()).tenant_id;
    unlicensed.add(tenantId);
    const res = await exchange(signConnectJwt(site, { fullPath: projectPage, qsh: "context-qsh" }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ Result: "license" });
    unlicensed.delete(tenantId);
    expect(
      (await exchange(signConnectJwt(site, { fullPath: projectPage.replace("lic=active", "lic=none"), qsh: "context-qsh" }))).status,
    ).toBe(200);
  });

  it("refuses a request without a Connect JWT", async () => {
    const res = await request(ctx.app).post("/api/exchange-token").send({ fullPath: projectPage, method: "GET", product: "jira" });
    expect(res.status).toBe(401);
    expect(res.body.Result).toEqual(expect.any(String));
  });

  it("refuses expired, wrongly signed, unsigned and misdirected tokens with 401", async () => {
    const expired = signConnectJwt(siteA, { fullPath: projectPage, expiresIn: -10 });
    const wrongSecret = signConnectJwt({ ...siteA, sharedSecret: siteB.sharedSecret }, { fullPath: projectPage });
    const otherPage = signConnectJwt(siteA, { fullPath: "/authenticate/configuration" });
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const exp = Math.floor(Date.now() / 1000) + 180;
    const unsigned = `${encode({ alg: "none" })}.${encode({ iss: siteA.clientKey, sub: "557058:alice", exp, qsh: "context-qsh" })}.`;
    const unknownSite = signConnectJwt({ clientKey: "jira:unknown", sharedSecret: siteA.sharedSecret }, { fullPath: projectPage });
    for (const jwt of [expired, wrongSecret, otherPage, unsigned, unknownSite, "garbage"]) {
      const res = await exchange(jwt);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ Result: expect.any(String) });
    }
  });

  it("refuses a token issued a day in the future, and accepts one within the clock skew", async () => {
    const tomorrow = await exchange(signConnectJwt(siteA, { fullPath: projectPage, issuedIn: 86_400 }));
    expect(tomorrow.status).toBe(401);
    expect(tomorrow.body).toEqual({ Result: "The Connect token was issued in the future" });
    const slightlyAhead = await exchange(signConnectJwt(siteA, { fullPath: projectPage, issuedIn: CLOCK_SKEW_SECONDS - 5 }));
    expect(slightlyAhead.status).toBe(200);
  });

  it("validates the body in the spec's format", async () => {
    const res = await exchange(signConnectJwt(siteA, { fullPath: projectPage }), {
      fullPath: projectPage,
      method: "GET",
      product: "bitbucket",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ product: ["Must be jira or confluence"] });
  });
});

describe("GET /api/refresh and GET /api/user", () => {
  it("refreshes the token for the same user and site", async () => {
    const token = await tokenOf(siteA);
    const res = await request(ctx.app).get("/api/refresh").set("Authorization", `Bearer ${token}`);
    expect(res.status).toBe(200);
    const [before, after] = await Promise.all(
      [token, res.body.token].map((value) => verifyAppToken(ctx.deps.config.appTokenSecret, value)),
    );
    expect(after).toEqual(before);
  });

  const DAY_SECONDS = 24 * 60 * 60;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const refresh = (token: string) => request(ctx.app).get("/api/refresh").set("Authorization", `Bearer ${token}`);

  /** Alice's valid token, issued now, for a sign-in through the site that many days ago. */
  async function signedInDaysAgo(days: number): Promise<{ token: string; auth: AuthContext }> {
    const current = await verifyAppToken(ctx.deps.config.appTokenSecret, await tokenOf(siteA));
    if (!current) throw new Error("the exchange answered no valid token");
    const auth = { ...current, signedInAt: nowSeconds() - days * DAY_SECONDS };
    return { token: await signAppToken(ctx.deps.config.appTokenSecret, auth), auth };
  }

  it("keeps the time of the sign-in through the site across refreshes", async () => {
    const { token, auth } = await signedInDaysAgo(6);
    const res = await refresh(token);
    expect(res.status).toBe(200);
    expect(await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token)).toEqual(auth);
  });

  it("ends a sign-in after a week: the last refresh's token expires with it, then the user signs in through the site again", async () => {
    const lateInTheWeek = await signedInDaysAgo(7 - 1 / 24);
    const res = await refresh(lateInTheWeek.token);
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.token).exp).toBe(lateInTheWeek.auth.signedInAt + 7 * DAY_SECONDS);

    const { token } = await signedInDaysAgo(8);
    const expired = await refresh(token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ Result: "The token is invalid or has expired" });
  });

  it("refuses to refresh a token still valid by its expiry once its sign-in is over a week old", async () => {
    const current = await verifyAppToken(ctx.deps.config.appTokenSecret, await tokenOf(siteA));
    const signedInAt = nowSeconds() - 8 * DAY_SECONDS;
    const outlived = await new SignJWT({ tid: current?.tenantId, prd: "jira", clk: siteA.clientKey, auth_time: signedInAt })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("rmcloud")
      .setSubject("557058:alice")
      .setIssuedAt(nowSeconds() - 3600)
      .setExpirationTime(nowSeconds() + 3600)
      .sign(new TextEncoder().encode(ctx.deps.config.appTokenSecret));

    const res = await refresh(outlived);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ Result: "The sign-in has ended: sign in through your Atlassian site again" });
  });

  it("refreshes a token signed before sign-in times were recorded, counting from when it was issued", async () => {
    const current = await verifyAppToken(ctx.deps.config.appTokenSecret, await tokenOf(siteA));
    const issuedAt = nowSeconds() - 3600;
    const legacy = await new SignJWT({ tid: current?.tenantId, prd: "jira", clk: siteA.clientKey })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("rmcloud")
      .setSubject("557058:alice")
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + DAY_SECONDS)
      .sign(new TextEncoder().encode(ctx.deps.config.appTokenSecret));

    const res = await refresh(legacy);
    expect(res.status).toBe(200);
    expect(await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token)).toMatchObject({ signedInAt: issuedAt });
  });

  it("checks the license again on refresh: once the host says it is inactive, no new token", async () => {
    const site = await installSite(ctx, keys);
    const token = await tokenOf(site);
    const tenantId = (await ctx.deps.db("tenants").where({ site_url: site.siteUrl }).first()).tenant_id;
    expect((await refresh(token)).status).toBe(200);
    unlicensed.add(tenantId);
    const refused = await refresh(token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ Result: "license" });
    unlicensed.delete(tenantId);
    unreachable.add(tenantId);
    const unknown = await refresh(token);
    expect(unknown.status).toBe(503);
    expect(unknown.body).toEqual({ Result: "rmCloud could not check the site's license with Atlassian. Please try again." });
    unreachable.delete(tenantId);
  });

  it("answers the user record of the signed-in user's site", async () => {
    const res = await request(ctx.app)
      .get("/api/user")
      .set("Authorization", `Bearer ${await tokenOf(siteA)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: "557058:alice",
      installed_on_confluence: true,
      atlassian_base_url: "https://alpha.atlassian.net",
    });
  });

  it("keeps sites apart: site B's token only ever reads site B", async () => {
    const res = await request(ctx.app)
      .get("/api/user")
      .set("Authorization", `Bearer ${await tokenOf(siteB, "557058:bob")}`);
    expect(res.body).toEqual({
      account_id: "557058:bob",
      installed_on_confluence: false,
      atlassian_base_url: "https://beta.atlassian.net",
    });
  });

  it("refuses the tokens of an uninstalled Confluence while the site's Jira tokens still work", async () => {
    const jira = await installSite(ctx, keys);
    const confluence = await installSite(ctx, keys, { siteUrl: jira.siteUrl, product: "confluence" });
    const jiraToken = await tokenOf(jira);
    const confluenceToken = await tokenOf(confluence);
    expect((await postLifecycle(ctx, keys, confluence, "uninstalled")).status).toBe(204);

    const refused = await request(ctx.app).get("/api/user").set("Authorization", `Bearer ${confluenceToken}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ Result: "rmCloud is not installed on this site" });
    const jiraUser = await request(ctx.app).get("/api/user").set("Authorization", `Bearer ${jiraToken}`);
    expect(jiraUser.status).toBe(200);
    expect(jiraUser.body.installed_on_confluence).toBe(false);
  });

  it("answers 401 without a token", async () => {
    expect((await request(ctx.app).get("/api/user")).status).toBe(401);
    expect((await request(ctx.app).get("/api/refresh")).status).toBe(401);
  });

  it("publishes the auth routes in the OpenAPI document", async () => {
    const res = await request(ctx.app).get("/api/openapi.json");
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(["/api/exchange-token", "/api/refresh", "/api/user"]));
    expect(res.body.paths["/api/exchange-token"].post.security).toEqual([{ connectJwt: [] }]);
  });
});
