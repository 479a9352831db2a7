import { generateKeyPairSync, randomUUID } from "node:crypto";
import * as atlassianJwt from "atlassian-jwt";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestContext } from "../../test/helpers/app.js";
import {
  createConnectTestApp,
  exchangeToken,
  type InstalledSite,
  installSite,
  type KeyServer,
  postLifecycle,
  signConnectJwt,
  signLifecycleJwt,
  startKeyServer,
} from "../../test/helpers/connect.js";
import { queuedJobs } from "../../test/helpers/jobs.js";
import { issueDeletedJob } from "../jobs/issueDeletedJob.js";
import { queryStringHash } from "./connectJwt.js";

let keys: KeyServer;
let ctx: TestContext;
beforeAll(async () => {
  keys = await startKeyServer();
  ctx = await createConnectTestApp(keys);
});
afterAll(async () => {
  await ctx.destroy();
  await keys.close();
});

const page = "/authenticate/requirements?projectId=10000&projectKey=DEMO&lic=active";
const signIn = (site: InstalledSite) => exchangeToken(ctx, site, { fullPath: page, product: site.product });

const tenantOf = (siteUrl: string) => ctx.deps.db("tenants").where({ site_url: siteUrl }).first();

const unsignedSite = (): InstalledSite => {
  const siteUrl = `https://site-${randomUUID().slice(0, 8)}.atlassian.net`;
  return { product: "jira", siteUrl, baseUrl: siteUrl, clientKey: `jira:${randomUUID()}`, sharedSecret: randomUUID() };
};

describe("Connect descriptors as hosts fetch them", () => {
  it("serves the Jira descriptor with the add-on's base URL", async () => {
    const res = await request(ctx.app).get("/atlassian-connect.json");
    expect(res.status).toBe(200);
    expect(res.body.key).toBe("rmcloud");
    expect(res.body.baseUrl).toBe(ctx.deps.config.baseUrl);
    expect(res.body.modules.jiraProjectPages[0].key).toBe("rmcloud-requirements");
  });

  it("serves the Confluence descriptor with both macros", async () => {
    const res = await request(ctx.app).get("/confluence/atlassian-connect.json");
    expect(res.status).toBe(200);
    expect(res.body.baseUrl).toBe(ctx.deps.config.baseUrl);
    expect(res.body.modules.dynamicContentMacros.map((macro: { key: string }) => macro.key)).toEqual([
      "rmcloud-linked-requirements",
      "rmcloud-insert-requirements",
    ]);
  });
});

describe("the installed lifecycle", () => {
  it("installs a site from a signed callback: a new tenant that its users can sign in to", async () => {
    const site = await installSite(ctx, keys);
    const tenant = await tenantOf(site.siteUrl);
    expect(tenant).toMatchObject({ site_url: site.siteUrl, active: true });
    const res = await signIn(site);
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
    expect(process.env.CONNECT_KEYS_CDN_URL).toBeUndefined();
  });

  it("keeps the shared secret out of the stored install payload", async () => {
    const site = await installSite(ctx, keys);
    const row = await ctx.deps.db("installations").where({ client_key: site.clientKey }).first();
    expect(row.shared_secret).toBe(site.sharedSecret);
    expect(JSON.stringify(row.client_info)).not.toContain(site.sharedSecret);
  });

  it("refuses an unsigned install", async () => {
    const site = unsignedSite();
    const res = await request(ctx.app).post("/installed").send({
      key: "rmcloud",
      clientKey: site.clientKey,
      sharedSecret: site.sharedSecret,
      baseUrl: site.baseUrl,
      productType: "jira",
      eventType: "installed",
    });
    expect(res.status).toBe(401);
    expect(await tenantOf(site.siteUrl)).toBeUndefined();
  });

  it("refuses an install signed with the shared secret instead of Atlassian's key", async () => {
    const site = unsignedSite();
    const symmetric = signConnectJwt(site, { method: "POST", fullPath: "/installed" });
    const res = await request(ctx.app)
      .post("/installed")
      .set("Authorization", `JWT ${symmetric}`)
      .send({ key: "rmcloud", clientKey: site.clientKey, sharedSecret: site.sharedSecret, baseUrl: site.baseUrl, productType: "jira" });
    expect(res.status).toBe(401);
    expect(await tenantOf(site.siteUrl)).toBeUndefined();
  });

  it("refuses an install signed by a key the key server does not publish", async () => {
    const site = unsignedSite();
    const impostor = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const res = await postLifecycle(ctx, { kid: keys.kid, privateKey: impostor }, site, "installed");
    // ACE answers a signature that does not verify with 400 ("Unable to decode JWT token").
    expect(res.status).toBe(400);
    expect(await tenantOf(site.siteUrl)).toBeUndefined();
  });

  it("refuses an install signed for another add-on or another callback", async () => {
    const site = unsignedSite();
    const now = Math.floor(Date.now() / 1000);
    const sign = (aud: string, path: string) =>
      atlassianJwt.encodeAsymmetric(
        { iss: site.clientKey, aud: [aud], iat: now, exp: now + 180, qsh: queryStringHash("POST", path) },
        keys.privateKey,
        atlassianJwt.AsymmetricAlgorithm.RS256,
        { kid: keys.kid },
      );
    const body = { key: "rmcloud", clientKey: site.clientKey, sharedSecret: site.sharedSecret, baseUrl: site.baseUrl, productType: "jira" };
    const otherAddon = await request(ctx.app)
      .post("/installed")
      .set("Authorization", `JWT ${sign("https://other.example.com", "/installed")}`)
      .send(body);
    expect(otherAddon.status).toBe(401);
    const otherCallback = await request(ctx.app)
      .post("/installed")
      .set("Authorization", `JWT ${sign(ctx.deps.config.baseUrl, "/uninstalled")}`)
      .send(body);
    expect(otherCallback.status).toBe(401);
    expect(await tenantOf(site.siteUrl)).toBeUndefined();
  });

  it("reinstalls a site with a new shared secret: the new one signs in, the old one no longer does", async () => {
    const first = await installSite(ctx, keys);
    const { tenant_id: tenantId } = await tenantOf(first.siteUrl);
    const second = await installSite(ctx, keys, { siteUrl: first.siteUrl, clientKey: first.clientKey });
    expect((await signIn(second)).status).toBe(200);
    expect((await signIn(first)).status).toBe(401);
    expect((await tenantOf(first.siteUrl)).tenant_id).toBe(tenantId);
  });

  it("lets a Confluence install of the same site join the Jira site's tenant", async () => {
    const jira = await installSite(ctx, keys);
    const confluence = await installSite(ctx, keys, { siteUrl: jira.siteUrl, product: "confluence" });
    const tenants = await ctx.deps.db("tenants").where({ site_url: jira.siteUrl });
    expect(tenants).toHaveLength(1);
    const installations = await ctx.deps.db("installations").where({ tenant_id: tenants[0].tenant_id }).orderBy("product");
    expect(installations.map((row) => [row.product, row.base_url])).toEqual([
      ["confluence", `${jira.siteUrl}/wiki`],
      ["jira", jira.siteUrl],
    ]);
    expect((await signIn(confluence)).status).toBe(200);
  });

  it("gives a new site at an address another site had a tenant of its own; the earlier site's data stays with it", async () => {
    const earlier = await installSite(ctx, keys, { cloudId: randomUUID() });
    const { tenant_id: earlierTenant } = await tenantOf(earlier.siteUrl);
    await ctx.deps.db("folders").insert({ tenant_id: earlierTenant, project_id: 10000, name: "Theirs", created_by: "someone" });
    expect((await postLifecycle(ctx, keys, earlier, "uninstalled")).status).toBe(204);

    const next = await installSite(ctx, keys, { siteUrl: earlier.siteUrl, cloudId: randomUUID() });
    const { tenant_id: nextTenant } = await tenantOf(next.siteUrl);
    expect(nextTenant).not.toBe(earlierTenant);
    expect(await ctx.deps.db("folders").where({ tenant_id: nextTenant })).toEqual([]);
    expect(await ctx.deps.db("folders").where({ tenant_id: earlierTenant })).toHaveLength(1);
    expect((await signIn(next)).status).toBe(200);
    expect((await signIn(earlier)).status).toBe(401);
  });

  it("keeps a site's tenant by its cloud id when the site is renamed and its other product installs", async () => {
    const cloudId = randomUUID();
    const jira = await installSite(ctx, keys, { cloudId });
    const { tenant_id: tenantId } = await tenantOf(jira.siteUrl);
    const renamed = `https://renamed-${randomUUID().slice(0, 8)}.atlassian.net`;
    const confluence = await installSite(ctx, keys, { siteUrl: renamed, product: "confluence", cloudId });
    expect((await tenantOf(renamed)).tenant_id).toBe(tenantId);
    expect(await tenantOf(jira.siteUrl)).toBeUndefined();
    expect((await signIn(confluence)).status).toBe(200);
  });

  it("joins a site recorded before cloud ids by its address, and keeps its cloud id from then on", async () => {
    const jira = await installSite(ctx, keys);
    const cloudId = randomUUID();
    await installSite(ctx, keys, { siteUrl: jira.siteUrl, product: "confluence", cloudId });
    const tenant = await tenantOf(jira.siteUrl);
    expect(tenant.cloud_id).toBe(cloudId);
    expect(await ctx.deps.db("installations").where({ tenant_id: tenant.tenant_id })).toHaveLength(2);
  });

  it("gives a newly installed site the default requirement types exactly once", async () => {
    const site = await installSite(ctx, keys);
    const { tenant_id: tenantId } = await tenantOf(site.siteUrl);
    const before = await ctx.deps.db("requirement_types").where({ tenant_id: tenantId }).count({ n: "*" });
    await installSite(ctx, keys, { siteUrl: site.siteUrl, product: "confluence" });
    await installSite(ctx, keys, { siteUrl: site.siteUrl, clientKey: site.clientKey });
    const after = await ctx.deps.db("requirement_types").where({ tenant_id: tenantId }).count({ n: "*" });
    expect(after).toEqual(before);
  });
});

describe("install callbacks the signature does not fully cover", () => {
  const lifecycleJwt = (site: InstalledSite, path: "/installed" | "/uninstalled") =>
    signLifecycleJwt(keys, { clientKey: site.clientKey, aud: ctx.deps.config.baseUrl, path });

  it("accepts each signed callback once: a replay, with another shared secret in its body, is refused", async () => {
    const site = unsignedSite();
    const jwt = lifecycleJwt(site, "/installed");
    expect((await postLifecycle(ctx, keys, site, "installed", {}, jwt)).status).toBe(204);

    const replay = await postLifecycle(ctx, keys, { ...site, sharedSecret: "the-replayer-knows-this" }, "installed", {}, jwt);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ Result: "This lifecycle callback was already received" });
    expect((await signIn(site)).status).toBe(200);
    expect((await signIn({ ...site, sharedSecret: "the-replayer-knows-this" })).status).toBe(401);
  });

  it("refuses a replayed uninstall, even after the site installed again", async () => {
    const site = await installSite(ctx, keys);
    const uninstall = lifecycleJwt(site, "/uninstalled");
    expect((await postLifecycle(ctx, keys, site, "uninstalled", {}, uninstall)).status).toBe(204);
    await installSite(ctx, keys, { siteUrl: site.siteUrl, clientKey: site.clientKey, sharedSecret: site.sharedSecret });
    expect((await postLifecycle(ctx, keys, site, "uninstalled", {}, uninstall)).status).toBe(401);
    expect(await tenantOf(site.siteUrl)).toMatchObject({ active: true });
  });

  it("refuses a new clientKey carrying the cloud id of a site whose Jira is installed: the site's own users keep signing in", async () => {
    const cloudId = randomUUID();
    const owner = await installSite(ctx, keys, { cloudId });
    const { tenant_id: tenantId } = await tenantOf(owner.siteUrl);
    const intruder = unsignedSite();

    const res = await postLifecycle(ctx, keys, intruder, "installed", { cloudId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Result: "This site's Jira has rmCloud installed under another client key" });
    expect((await tenantOf(owner.siteUrl)).tenant_id).toBe(tenantId);
    expect(await tenantOf(intruder.siteUrl)).toBeUndefined();
    expect((await signIn(owner)).status).toBe(200);
    expect((await signIn(intruder)).status).toBe(401);
  });

  it("lets a new clientKey take the place of the site's uninstalled installation", async () => {
    const cloudId = randomUUID();
    const earlier = await installSite(ctx, keys, { cloudId });
    expect((await postLifecycle(ctx, keys, earlier, "uninstalled")).status).toBe(204);
    const later = await installSite(ctx, keys, { siteUrl: earlier.siteUrl, cloudId });
    expect((await signIn(later)).status).toBe(200);
    expect((await tenantOf(earlier.siteUrl)).active).toBe(true);
  });

  it("pins the recorded cloud id: a reinstall naming another one is refused", async () => {
    const site = await installSite(ctx, keys, { cloudId: randomUUID() });
    const res = await postLifecycle(ctx, keys, site, "installed", { cloudId: randomUUID() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Result: "This installation belongs to another Atlassian site than the one it was installed on" });
    expect((await signIn(site)).status).toBe(200);
  });

  it("moves a site's address only with its recorded cloud id (a renamed site); otherwise the address stays", async () => {
    const cloudId = randomUUID();
    const site = await installSite(ctx, keys, { cloudId });
    const { tenant_id: tenantId } = await tenantOf(site.siteUrl);
    const elsewhere = `https://elsewhere-${randomUUID().slice(0, 8)}.atlassian.net`;

    const unproven = await postLifecycle(ctx, keys, { ...site, siteUrl: elsewhere, baseUrl: elsewhere }, "installed");
    expect(unproven.status).toBe(409);
    expect(unproven.body).toEqual({ Result: "An installation's site address changes only with the site's cloud id (a renamed site)" });
    expect((await tenantOf(site.siteUrl)).tenant_id).toBe(tenantId);

    const renamed = await postLifecycle(ctx, keys, { ...site, siteUrl: elsewhere, baseUrl: elsewhere }, "installed", { cloudId });
    expect(renamed.status).toBe(204);
    expect((await tenantOf(elsewhere)).tenant_id).toBe(tenantId);
    expect((await ctx.deps.db("installations").where({ client_key: site.clientKey }).first()).base_url).toBe(elsewhere);
  });
});

describe("the uninstalled lifecycle", () => {
  it("closes the site's access but keeps its data; a reinstall restores it", async () => {
    const site = await installSite(ctx, keys);
    const signedIn = await signIn(site);
    const bearer = `Bearer ${signedIn.body.token}`;
    const { tenant_id: tenantId } = await tenantOf(site.siteUrl);
    await ctx.deps.db("folders").insert({ tenant_id: tenantId, project_id: 10000, name: "Kept", created_by: "someone" });

    expect((await postLifecycle(ctx, keys, site, "uninstalled")).status).toBe(204);
    expect(await tenantOf(site.siteUrl)).toMatchObject({ active: false });
    expect((await request(ctx.app).get("/api/user").set("Authorization", bearer)).status).toBe(401);
    expect((await signIn(site)).status).toBe(401);
    expect(await ctx.deps.db("folders").where({ tenant_id: tenantId })).toHaveLength(1);

    await installSite(ctx, keys, { siteUrl: site.siteUrl, clientKey: site.clientKey, sharedSecret: site.sharedSecret });
    expect((await request(ctx.app).get("/api/user").set("Authorization", bearer)).status).toBe(200);
    expect((await signIn(site)).status).toBe(200);
    expect(await ctx.deps.db("folders").where({ tenant_id: tenantId })).toHaveLength(1);
  });

  it("refuses an unsigned uninstall", async () => {
    const site = await installSite(ctx, keys);
    const res = await request(ctx.app)
      .post("/uninstalled")
      .send({ clientKey: site.clientKey, baseUrl: site.baseUrl, eventType: "uninstalled" });
    expect(res.status).toBe(401);
    expect(await tenantOf(site.siteUrl)).toMatchObject({ active: true });
  });

  it("uninstalling Confluence alone leaves Jira open and the site no longer on Confluence", async () => {
    const jira = await installSite(ctx, keys);
    const confluence = await installSite(ctx, keys, { siteUrl: jira.siteUrl, product: "confluence" });
    const jiraToken = (await signIn(jira)).body.token;
    const confluenceToken = (await signIn(confluence)).body.token;
    expect((await postLifecycle(ctx, keys, confluence, "uninstalled")).status).toBe(204);

    const user = await request(ctx.app).get("/api/user").set("Authorization", `Bearer ${jiraToken}`);
    expect(user.body.installed_on_confluence).toBe(false);
    expect((await signIn(confluence)).status).toBe(401);
    expect((await request(ctx.app).get("/api/refresh").set("Authorization", `Bearer ${confluenceToken}`)).status).toBe(401);
    expect((await request(ctx.app).get("/api/refresh").set("Authorization", `Bearer ${jiraToken}`)).status).toBe(200);
  });
});

describe("webhooks", () => {
  const webhook = "/webhooks/jira-issue-deleted";
  const body = { webhookEvent: "jira:issue_deleted", issue: { id: "10001", key: "DEMO-1" } };

  it("accepts a jira:issue_deleted webhook signed by an installed site and puts the removal of its links on the job queue", async () => {
    const site = await installSite(ctx, keys);
    const tenant = await tenantOf(site.siteUrl);
    const jwt = signConnectJwt(site, { method: "POST", fullPath: webhook });
    const res = await request(ctx.app).post(webhook).set("Authorization", `JWT ${jwt}`).send(body);
    expect(res.status).toBe(204);
    await vi.waitFor(async () => {
      expect((await queuedJobs(ctx.deps.db, issueDeletedJob, tenant.tenant_id)).map((job) => job.data)).toEqual([
        { tenantId: tenant.tenant_id, issueId: "10001" },
      ]);
    });
  });

  it("refuses an unsigned webhook and one from an uninstalled site", async () => {
    expect((await request(ctx.app).post(webhook).send(body)).status).toBe(401);
    const site = await installSite(ctx, keys);
    await postLifecycle(ctx, keys, site, "uninstalled");
    const jwt = signConnectJwt(site, { method: "POST", fullPath: webhook });
    expect((await request(ctx.app).post(webhook).set("Authorization", `JWT ${jwt}`).send(body)).status).toBe(401);
  });
});
