import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORGE_EXCHANGE_PATH } from "../../common/forge.js";
import { seedContentUsers } from "../../emulator/seed/users.js";
import { KnexInstallationStore } from "../../server/connect/aceStore.js";
import { type ForgeKeys, signForgeInvocationToken, startForgeJwksServer } from "../helpers/forge.js";
import { addonApi, freePort, type Harness, startHarness } from "./harness.js";
import { createRequirementAs } from "./requirementsFixture.js";

// A person the emulated Jira knows: the add-on asks Jira what its user may do in the issue's project.
const FORGE_USER = seedContentUsers[0]?.accountId ?? "";

const FORGE_APP_ID = "ari:cloud:ecosystem::app/5a7c9e1b-3d2f-4a6b-8c0d-1e2f3a4b5c6d";
/** PUMP-1 of the emulator's seeded Jira, in project PUMP. */
const ISSUE = { id: "10000", key: "PUMP-1" };
const PROJECT = { id: "10000", key: "PUMP" };
const CDN_PATH = "/forge-cdn/";

/**
 * The Forge issue panel (Custom UI, client/forge/) against the real add-on, with Forge played by a
 * stub of the Custom UI bridge (`window.__bridge.callBridge`, what @forge/bridge calls): it answers
 * the view's context and carries invokeRemote to the add-on with a Forge invocation token signed by
 * a local JWKS server, as Forge does. The panel's files come from Vite as Forge's CDN would serve the
 * built resource; they are routed under the add-on's origin so the page talks to the add-on as a
 * Forge page on a site whose Connect installation moved to the Forge app.
 */
describe("The Forge issue panel (Custom UI on @forge/bridge)", () => {
  let harness: Harness;
  let forgeKeys: ForgeKeys;
  let vite: ViteDevServer;
  let token: string;
  const installationId = `ari:cloud:ecosystem::installation/${randomUUID()}`;
  const bridgeCalls: Array<{ name: string; payload: unknown }> = [];

  const invocationToken = () => signForgeInvocationToken(forgeKeys, { appId: FORGE_APP_ID, installationId, accountId: FORGE_USER });
  const api = <T = unknown>(method: string, path: string, body?: unknown) => addonApi<T>(harness.addonUrl, token, method, path, body);

  /** What Forge does for invokeRemote: the request goes to the remote with a fresh invocation token. */
  async function invokeRemote(payload: { path: string; method: string; body?: unknown }) {
    const res = await fetch(`${harness.addonUrl}${payload.path}`, {
      method: payload.method,
      headers: { authorization: `Bearer ${await invocationToken()}`, "content-type": "application/json" },
      body: payload.body === undefined ? undefined : JSON.stringify(payload.body),
    });
    const body = await res.json().catch(() => undefined);
    return res.ok
      ? { success: true, payload: { status: res.status, headers: {}, body } }
      : { success: false, error: { status: res.status, headers: {}, body } };
  }

  /** The panel as Forge opens it: in the issue view, or (`modal`) in the modal its Edit opened. */
  async function openPanel(modal?: { dialog: string; customData: unknown }): Promise<Page> {
    const page = await harness.newPage();
    const viteUrl = `http://localhost:${vite.config.server.port}`;
    await page.route(`${harness.addonUrl}${CDN_PATH}**`, async (route) => {
      const url = new URL(route.request().url());
      const res = await fetch(`${viteUrl}${url.pathname}${url.search}`);
      await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
    });
    await page.exposeFunction("forgeStub", async (name: string, payload: unknown) => {
      bridgeCalls.push({ name, payload });
      if (name === "getContext") {
        return {
          extension: { type: "jira:issuePanel", issue: ISSUE, project: PROJECT, ...(modal ? { modal } : {}) },
          accountId: FORGE_USER,
          locale: "en-US",
          moduleKey: "rmcloud-forge-issue-panel",
        };
      }
      if (name === "invoke") return invokeRemote(payload as { path: string; method: string; body?: unknown });
      return true;
    });
    await page.addInitScript(() => {
      const stub = (window as unknown as { forgeStub: (name: string, payload: unknown) => Promise<unknown> }).forgeStub;
      (window as unknown as { __bridge: unknown }).__bridge = {
        // Functions (a modal's onClose) stay in the page; everything else is answered by the test.
        callBridge: (name: string, payload?: Record<string, unknown>) =>
          stub(name, payload && Object.fromEntries(Object.entries(payload).filter(([, value]) => typeof value !== "function"))),
      };
    });
    await page.goto(`${harness.addonUrl}${CDN_PATH}index.html`);
    return page;
  }

  beforeAll(async () => {
    forgeKeys = await startForgeJwksServer();
    harness = await startHarness({ addonEnv: { FORGE_JIRA_APP_ID: FORGE_APP_ID, FORGE_JWKS_URL: forgeKeys.jwksUrl } });
    // The emulator installed the Connect app; the site then moves to the Forge app (its `installed` names the Forge installation).
    const db = harness.addonDeps.db;
    const { client_key: clientKey } = await db("installations").where({ product: "jira" }).first("client_key");
    await new KnexInstallationStore(db).associateInstallations(installationId, clientKey);
    vite = await createServer({
      configFile: fileURLToPath(new URL("../../forge/vite.config.ts", import.meta.url)),
      base: CDN_PATH,
      logLevel: "error",
      server: { port: await freePort(), strictPort: true, hmr: false, ws: false, watch: null },
    });
    await vite.listen();
    const exchanged = await invokeRemote({ path: FORGE_EXCHANGE_PATH, method: "POST", body: {} });
    const body = exchanged.payload?.body as { token?: string } | undefined;
    if (!body?.token) throw new Error(`The Forge sign-in failed: ${JSON.stringify(exchanged)}`);
    token = body.token;
  });

  afterAll(async () => {
    await vite?.close();
    await harness?.stop();
    await forgeKeys?.close();
  });

  const createRequirement = (name: string, project: number) => createRequirementAs(harness.addonUrl, token, name, project);

  it("signs in through the remote and lists the issue's requirements from the Connect installation's data", async () => {
    const pumpStops = await createRequirement("The pump stops on occlusion", Number(PROJECT.id));
    const audited = await createRequirement("Every change is audited", 0);
    await api("PUT", `/api/issue/${ISSUE.id}`, { requirements: [pumpStops.requirement_id, audited.requirement_id] });

    const page = await openPanel();
    const link = page.getByRole("link", { name: "The pump stops on occlusion" });
    // The first load waits for Vite to optimise the panel's dependencies.
    await link.waitFor({ timeout: 90_000 });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("href")).toContain(`ac.requirementId=${pumpStops.requirement_id}`);
    await page.getByRole("link", { name: "Every change is audited" }).waitFor();
    expect(bridgeCalls.map((call) => call.name)).toEqual(expect.arrayContaining(["invoke", "getContext"]));
    expect(bridgeCalls.find((call) => call.name === "invoke")?.payload).toMatchObject({ path: FORGE_EXCHANGE_PATH, method: "POST" });
    await page.close();
  });

  it("opens the link dialog as a Forge modal from Edit", async () => {
    const page = await openPanel();
    await page.getByRole("button", { name: "Edit" }).click({ timeout: 90_000 });
    await expect
      .poll(() => bridgeCalls.find((call) => call.name === "openModal")?.payload)
      .toMatchObject({
        size: "large",
        context: { dialog: "link-requirements-dialog", customData: { issueId: ISSUE.id, projectId: Number(PROJECT.id) } },
      });
    await page.close();
  });

  it("shows the link dialog in that modal with buttons of its own; Save links the chosen requirement and closes the modal", async () => {
    const alarm = await createRequirement("An alarm sounds on occlusion", Number(PROJECT.id));
    bridgeCalls.length = 0;
    const page = await openPanel({ dialog: "link-requirements-dialog", customData: { issueId: ISSUE.id, projectId: Number(PROJECT.id) } });
    const select = page.locator("#link-requirements-select");
    await page.getByText("The pump stops on occlusion").waitFor({ timeout: 90_000 });
    // A Forge modal has no title bar of its own: the page names the dialog as Connect's header does.
    expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("Update linked requirements");
    await select.fill("An alarm");
    await page.getByText("An alarm sounds on occlusion", { exact: false }).last().click();
    await select.press("Escape");
    await page.getByRole("button", { name: "Save" }).click();

    await expect.poll(() => bridgeCalls.map((call) => call.name)).toContain("close");
    expect(bridgeCalls.find((call) => call.name === "showFlag")?.payload).toMatchObject({
      title: "Linked requirements saved successfully",
      type: "success",
    });
    const detail = await api<{ issues: unknown }>("GET", `/api/requirement/${alarm.requirement_id}`);
    expect(detail.issues).toEqual([{ atlassian_issue_id: ISSUE.id }]);
    await page.close();
  });
});
