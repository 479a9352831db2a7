import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { PANEL_LOCATION } from "../../common/spaRoutes.js";
import { addonFrame, type Harness, startHarness } from "../../test/e2e/harness.js";
import { round } from "../measure.js";
import { addJiraLatency, JIRA_LATENCY_NOTE } from "../emulatedJira.js";
import type { BenchCase, BenchResult } from "../types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Where `npm run build` puts the SPA and where the add-on serves it from in production. */
const distDir = path.join(root, "dist", "client");
const PUMP = 10000;
const RUNS = 5;
const REQUIREMENTS = 30;
const LINKED = 5;

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** Gzipped bytes of the JavaScript an html entry loads up front: its chunk and every static import. */
function entryJsBytes(manifest: Manifest, entry: string): number {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entry);
  let bytes = 0;
  for (const key of seen) {
    const file = manifest[key]?.file;
    if (file?.endsWith(".js")) bytes += gzipSync(fs.readFileSync(path.join(distDir, file))).length;
  }
  return bytes;
}

/** The production build, exactly as `npm run build` makes it (plus Vite's manifest, which the static server never serves). */
async function build(): Promise<Manifest> {
  const { build: viteBuild } = await import("vite");
  await viteBuild({ configFile: path.join(root, "vite.config.ts"), logLevel: "error", build: { manifest: true } });
  return JSON.parse(fs.readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;
}

/** Requirements in PUMP, a few of them linked to PUMP-1, through rmCloud's API as the panel's signed-in user. */
async function seed(harness: Harness): Promise<void> {
  const page = await harness.newPage();
  await page.goto(`${harness.emulatorUrl}/browse/PUMP-1`);
  const panel = await addonFrame(page, harness.addonUrl, PANEL_LOCATION);
  await panel.getByRole("button", { name: "Edit" }).waitFor({ timeout: 60_000 });
  const token = (await panel.evaluate(() => sessionStorage.getItem("rmcloud-token"))) ?? "";
  const issueId = new URL(panel.url()).searchParams.get("issueId") ?? "";
  await page.context().close();

  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${harness.addonUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const types = await api<{ requirement_types: { requirement_type_id: number }[] }>("GET", "/api/requirement/type");
  const typeId = types.requirement_types[0]?.requirement_type_id;
  const folder = await api<{ folder_id: number }>("POST", "/api/folder", { name: "Safety", project: PUMP, parent_folder_id: null });
  const linked: number[] = [];
  for (let n = 0; n < REQUIREMENTS; n++) {
    const created = await api<{ requirement_id: number }>("POST", "/api/requirement", {
      name: `Requirement ${n}`,
      description: "",
      project: PUMP,
      parent_folder_id: n % 2 === 0 ? null : folder.folder_id,
      requirement_type_id: typeId,
    });
    if (linked.length < LINKED) linked.push(created.requirement_id);
  }
  await api("PUT", `/api/issue/${issueId}`, { requirements: linked });
}

/** Median ms from navigation to `selector` visible inside the add-on iframe whose src contains `iframeSrc`; a fresh browser context (cold cache, new sign-in) each run. */
async function timeToVisible(harness: Harness, url: string, iframeSrc: string, selector: string): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await harness.browser.newContext();
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.frameLocator(`iframe[src*="${iframeSrc}"]`).locator(selector).first().waitFor({ state: "visible", timeout: 60_000 });
    samples.push(performance.now() - start);
    await context.close();
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

/**
 * The issue panel opens in every Jira issue view, so it must stay light. Against the full project
 * page (the Requirements screen with its tree), from the production build:
 * - gzipped JavaScript its html entry loads up front, shared chunks included;
 * - time from navigation to its first rendered list, in headless Chromium, with the add-on in
 *   production mode serving dist/client next to the emulated Jira (median of RUNS cold loads).
 */
const issuePanelLoad: BenchCase = {
  name: "issue-panel-load",
  async run(context) {
    // Neither measure depends on the database: measured once, on the first run.
    if (context.db !== "pglite") return [];
    const manifest = await build();
    const panelBytes = entryJsBytes(manifest, "panel.html");
    const mainBytes = entryJsBytes(manifest, "index.html");
    const results: BenchResult[] = [
      { case: "issue-panel-bundle-gzip", db: "none", ours: panelBytes, baseline: mainBytes, unit: "bytes", ratio: round(panelBytes / mainBytes) },
    ];

    // In production ACE accepts installs only from Atlassian's hosts (README, AC_HOST_WHITELIST); it reads process.env.
    const whitelist = process.env.AC_HOST_WHITELIST;
    process.env.AC_HOST_WHITELIST = "localhost";
    // Production pages may be framed only by Atlassian's hosts unless FRAME_ANCESTORS names another, here the emulator.
    const harness = await startHarness({
      addonEnv: { NODE_ENV: "production", APP_TOKEN_SECRET: "bench-only-secret-0123456789-abcdefghij", FRAME_ANCESTORS: "http://localhost:*" },
    }).finally(() => {
      if (whitelist === undefined) delete process.env.AC_HOST_WHITELIST;
      else process.env.AC_HOST_WHITELIST = whitelist;
    });
    try {
      await seed(harness);
      // Both pages call Jira (the panel its issue, the tree its project): a Jira across the internet, not on localhost.
      await addJiraLatency(harness.emulatorUrl);
      const panel = await timeToVisible(
        harness,
        `${harness.emulatorUrl}/browse/PUMP-1`,
        PANEL_LOCATION,
        'table[aria-label="Linked requirements"] tbody tr',
      );
      const projectPage = await timeToVisible(
        harness,
        `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}`,
        "/authenticate/requirements",
        '[role="treeitem"]',
      );
      results.push({
        case: "issue-panel-first-list-vs-project-tree",
        db: "none",
        ours: round(panel, 1),
        baseline: round(projectPage, 1),
        unit: "ms",
        ratio: round(panel / projectPage),
        note: JIRA_LATENCY_NOTE,
      });
    } finally {
      await harness.stop();
    }
    return results;
  },
};

export default issuePanelLoad;
