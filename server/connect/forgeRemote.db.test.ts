import { generateKeyPairSync, randomUUID } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORGE_EXCHANGE_PATH } from "../../common/forge.js";
import { type TestContext, testConfig } from "../../test/helpers/app.js";
import {
  createConnectTestApp,
  exchangeToken,
  installSite,
  type KeyServer,
  postLifecycle,
  startKeyServer,
} from "../../test/helpers/connect.js";
import { type ForgeKeys, signForgeInvocationToken, startForgeJwksServer } from "../../test/helpers/forge.js";
import { KnexInstallationStore } from "./aceStore.js";
import { verifyAppToken } from "./appToken.js";

const JIRA_FORGE_APP = "ari:cloud:ecosystem::app/6f1b7d5e-1c1a-4f0e-9a43-2b1f3c1e0d11";
const CONFLUENCE_FORGE_APP = "0d3c4b5a-6978-4a1b-8c2d-3e4f5a6b7c8d";
/** Where rmCloud's own Forge pages run (FORGE_CUSTOM_UI_ORIGINS). */
const OUR_CUSTOM_UI = "https://7f6b3a2c-1d2e-4f5a-9b8c-0d1e2f3a4b5c.cdn.prod.atlassian-dev.net";

let keys: KeyServer;
let forgeKeys: ForgeKeys;
let ctx: TestContext;
beforeAll(async () => {
  [keys, forgeKeys] = await Promise.all([startKeyServer(), startForgeJwksServer()]);
  ctx = await createConnectTestApp(keys, {
    config: {
      ...testConfig(),
      connectKeysCdnUrl: keys.url,
      forge: { appIds: [JIRA_FORGE_APP, CONFLUENCE_FORGE_APP], jwksUrl: forgeKeys.jwksUrl, customUiOrigins: [OUR_CUSTOM_UI] },
    },
  });
});
afterAll(async () => {
  await ctx.destroy();
  await Promise.all([keys.close(), forgeKeys.close()]);
});

const forgeInstallationId = () => `ari:cloud:ecosystem::installation/${randomUUID()}`;
const exchange = (token: string) => request(ctx.app).post(FORGE_EXCHANGE_PATH).set("Authorization", `Bearer ${token}`).send({});
const tenantOfClientKey = async (clientKey: string) =>
  (await ctx.deps.db("installations").where({ client_key: clientKey }).first("tenant_id")).tenant_id as string;

describe("Forge remote sign-in (Connect on Forge)", () => {
  it("gives a Forge invocation from the site's Forge installation a token for that site's tenant", async () => {
    const installationId = forgeInstallationId();
    const site = await installSite(ctx, keys, { installationId });
    const token = await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId, accountId: "557058:forge-user" });

    const res = await exchange(token);
    expect(res.status).toBe(200);
    expect(res.body.base_url).toBe(ctx.deps.config.baseUrl);
    const auth = await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token);
    expect(auth).toEqual({
      tenantId: await tenantOfClientKey(site.clientKey),
      accountId: "557058:forge-user",
      product: "jira",
      clientKey: site.clientKey,
      signedInAt: expect.any(Number),
    });

    const user = await request(ctx.app).get("/api/user").set("Authorization", `Bearer ${res.body.token}`);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ account_id: "557058:forge-user", atlassian_base_url: site.siteUrl });
  });

  it("accepts the Confluence Forge app by its bare app id and signs in to Confluence's installation", async () => {
    const installationId = forgeInstallationId();
    const site = await installSite(ctx, keys, { product: "confluence", installationId });
    const token = await signForgeInvocationToken(forgeKeys, { appId: CONFLUENCE_FORGE_APP, installationId, accountId: "557058:wiki-user" });
    const res = await exchange(token);
    expect(res.status).toBe(200);
    expect(await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token)).toMatchObject({
      product: "confluence",
      clientKey: site.clientKey,
    });
  });

  it("keeps an existing Connect installation's tenant and data when the site moves to the Forge app", async () => {
    const site = await installSite(ctx, keys);
    const connectSignIn = await exchangeToken(ctx, site, { fullPath: "/authenticate/configuration?lic=active" });
    const connectToken = connectSignIn.body.token as string;
    const created = await request(ctx.app)
      .post("/api/requirement/type")
      .set("Authorization", `Bearer ${connectToken}`)
      .send({ name: "Safety goal", prefix: "SG" });
    expect(created.status).toBeLessThan(300);

    // Atlassian upgrades the Connect installation in place: same clientKey, now naming its Forge installation.
    const installationId = forgeInstallationId();
    const upgrade = await postLifecycle(ctx, keys, site, "installed", { installationId });
    expect(upgrade.status).toBe(204);

    const res = await exchange(
      await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId, accountId: "557058:connect-user" }),
    );
    expect(res.status).toBe(200);
    const forgeAuth = await verifyAppToken(ctx.deps.config.appTokenSecret, res.body.token);
    expect(forgeAuth?.tenantId).toBe((await verifyAppToken(ctx.deps.config.appTokenSecret, connectToken))?.tenantId);
    const types = await request(ctx.app).get("/api/requirement/type").set("Authorization", `Bearer ${res.body.token}`);
    expect(JSON.stringify(types.body)).toContain("Safety goal");
  });

  it("refuses an expired token, a token for another app and a token signed with another key", async () => {
    const installationId = forgeInstallationId();
    await installSite(ctx, keys, { installationId });
    const claims = { appId: JIRA_FORGE_APP, installationId, accountId: "557058:forge-user" };

    const expired = await exchange(await signForgeInvocationToken(forgeKeys, { ...claims, expiresIn: -60 }));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ Result: "The Forge invocation token has expired" });

    const otherApp = await exchange(await signForgeInvocationToken(forgeKeys, { ...claims, appId: randomUUID() }));
    expect(otherApp.status).toBe(401);
    expect(otherApp.body).toEqual({ Result: "The Forge invocation token was not issued for rmCloud" });

    const { privateKey: otherKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const wrongKey = await exchange(await signForgeInvocationToken({ kid: forgeKeys.kid, privateKey: otherKey }, claims));
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toEqual({ Result: "The Forge invocation token's signature is invalid" });

    const none = await request(ctx.app).post(FORGE_EXCHANGE_PATH).send({});
    expect(none.status).toBe(401);
    expect((await exchange("not-a-jwt")).body).toEqual({ Result: "The Forge invocation token is malformed" });
  });

  it("refuses a Forge installation rmCloud was not installed with, and one whose site uninstalled rmCloud", async () => {
    const unknown = await exchange(
      await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId: forgeInstallationId(), accountId: "557058:u" }),
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ Result: "rmCloud is not installed on this site" });

    const installationId = forgeInstallationId();
    const site = await installSite(ctx, keys, { installationId });
    expect((await postLifecycle(ctx, keys, site, "uninstalled")).status).toBe(204);
    const gone = await exchange(
      await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId, accountId: "557058:u" }),
    );
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ Result: "rmCloud is not installed on this site" });
  });

  it("asks for a signed-in user and answers an inactive license as the Connect sign-in does", async () => {
    const installationId = forgeInstallationId();
    await installSite(ctx, keys, { installationId });
    const anonymous = await exchange(await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId }));
    expect(anonymous.status).toBe(401);
    const unlicensed = await exchange(
      await signForgeInvocationToken(forgeKeys, { appId: JIRA_FORGE_APP, installationId, accountId: "557058:u", licenseActive: false }),
    );
    expect(unlicensed.status).toBe(403);
    expect(unlicensed.body).toEqual({ Result: "license" });
  });

  it("lets rmCloud's own Forge Custom UI pages call the API across origins, and no other origin", async () => {
    const origin = OUR_CUSTOM_UI;
    const preflight = await request(ctx.app)
      .options("/api/user")
      .set("Origin", origin)
      .set("Access-Control-Request-Method", "GET")
      .set("Access-Control-Request-Headers", "authorization");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    expect(preflight.headers["access-control-allow-headers"]).toContain("Authorization");

    const other = await request(ctx.app).get("/api/user").set("Origin", "https://evil.example.com");
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    // Every Forge app's pages run on the same CDN: another app's page must not read our answers.
    const otherForgeApp = "https://0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.cdn.prod.atlassian-dev.net";
    for (const method of ["get", "options"] as const) {
      const answer = await request(ctx.app)[method]("/api/user").set("Origin", otherForgeApp).set("Access-Control-Request-Method", "GET");
      expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    }
  });
});

describe("ACE's Forge installation association on our store", () => {
  it("finds the Connect installation of a Forge installation, follows it to a new clientKey, and forgets it", async () => {
    const store = new KnexInstallationStore(ctx.deps.db);
    const installationId = forgeInstallationId();
    const site = await installSite(ctx, keys, { installationId });
    expect(await store.getClientSettingsForForgeInstallation(installationId)).toMatchObject({
      clientKey: site.clientKey,
      installationId,
      baseUrl: site.baseUrl,
    });

    const other = await installSite(ctx, keys);
    await store.associateInstallations(installationId, other.clientKey);
    expect(await store.getClientSettingsForForgeInstallation(installationId)).toMatchObject({ clientKey: other.clientKey });

    await store.deleteAssociation(installationId);
    expect(await store.getClientSettingsForForgeInstallation(installationId)).toBeNull();
    expect(() => store.forForgeInstallation(installationId)).toThrow(/keeps no Forge app tokens/);
  });
});
