import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { BrowserContext } from "playwright-core";
import { PANEL_LOCATION } from "../common/spaRoutes.js";
import { checkBudgets, type InitialLoad } from "../scripts/bundleBudget.js";
import { ANOTHER_SITE, addonFrame, type Harness, signedInToken, startHarness } from "../test/e2e/harness.js";
import { firstSeenAt, navigationStartedAt, watchFirstSeen } from "./firstSeen.js";
import { addJiraLatency, JIRA_LATENCY_NOTE } from "./emulatedJira.js";
import { median, round } from "./measure.js";
import type { BenchContext, BenchResult } from "./types.js";

/**
 * What the first-screen cases share: the production build, the add-on serving it next to the
 * emulated Jira, a project with requirements (some linked to an issue), and timed page loads in
 * headless Chromium.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where `npm run build` puts the SPA and where the add-on serves it from in production. */
const distDir = path.join(root, "dist", "client");
const PUMP = 10000;
export const RUNS = 5;
const REQUIREMENTS = 30;
const LINKED = 5;

export const PROJECT_PAGE = `/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}`;
export const ISSUE_PAGE = "/browse/PUMP-1";
export const TREE_ROW = '[role="treeitem"]';
export const PANEL_ROW = 'table[aria-label="Linked requirements"] tbody tr';
/** Markup that matches TREE_ROW and PANEL_ROW, for the empty frame the first rows are set against. */
export const TREE_ROW_MARKUP = '<div role="treeitem">BR-1: Requirement 0</div>';
export const PANEL_ROW_MARKUP = '<table aria-label="Linked requirements"><tbody><tr><td>BR-1: Requirement 0</td></tr></tbody></table>';
export const MAIN_FRAME = "/authenticate/requirements";
export const PANEL_FRAME = PANEL_LOCATION;

let built: Promise<InitialLoad[]> | undefined;

/** The production build, exactly as `npm run build` makes it (once per bench run), and each entry's first load. */
export function buildOnce(): Promise<InitialLoad[]> {
  built ??= (async () => {
    const { build } = await import("vite");
    await build({ configFile: path.join(root, "vite.config.ts"), logLevel: "error", build: { manifest: true } });
    return checkBudgets(distDir).loads;
  })();
  return built;
}

/** Gzipped bytes of every script and stylesheet the build holds: all an entry could ever load. */
export function allAssetBytes(): number {
  return fs
    .readdirSync(path.join(distDir, "assets"))
    .filter((file) => /\.(js|css)$/.test(file))
    .reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(distDir, "assets", file)), { level: 9 }).length, 0);
}

/** Requirements in PUMP, a few of them linked to PUMP-1, through rmCloud's API as the panel's signed-in user. */
async function seed(harness: Harness): Promise<void> {
  const page = await harness.newPage();
  await page.goto(`${harness.emulatorUrl}${ISSUE_PAGE}`);
  const panel = await addonFrame(page, harness.addonUrl, PANEL_LOCATION);
  await panel.getByRole("button", { name: "Edit" }).waitFor({ timeout: 60_000 });
  // Not from the page's storage: a frame of another site is denied it (client/api/pageStorage.ts).
  const token = await signedInToken(panel);
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

/**
 * The add-on in production mode serving dist/client beside the emulated Jira, on the run's database
 * (a database of its own on the run's PostgreSQL, or the embedded PGlite), seeded, for the length of `work`.
 */
export async function withProductionPages<T>(context: BenchContext, work: (harness: Harness) => Promise<T>): Promise<T> {
  // In production ACE accepts installs only from Atlassian's hosts (README, AC_HOST_WHITELIST); it reads process.env.
  const whitelist = process.env.AC_HOST_WHITELIST;
  process.env.AC_HOST_WHITELIST = "localhost";
  // Production pages may be framed only by Atlassian's hosts unless FRAME_ANCESTORS names another, here the emulator.
  const harness = await startHarness({
    addonHost: ANOTHER_SITE,
    postgresUrl: context.databaseUrl,
    addonEnv: {
      NODE_ENV: "production",
      APP_TOKEN_SECRET: "bench-only-secret-0123456789-abcdefghij",
      FRAME_ANCESTORS: "http://localhost:*",
    },
  }).finally(() => {
    if (whitelist === undefined) delete process.env.AC_HOST_WHITELIST;
    else process.env.AC_HOST_WHITELIST = whitelist;
  });
  try {
    await seed(harness);
    // The pages call Jira (the tree its project, the panel its issue): a Jira across the internet, not on localhost.
    await addJiraLatency(harness.emulatorUrl);
    return await work(harness);
  } finally {
    await harness.stop();
  }
}

/** One page load: ms from navigation, and from the add-on iframe's document request, until the watched element shows inside that iframe. */
type Load = { fromNavigation: number; fromFrameRequest: number };

async function timedLoad(context: BrowserContext, url: string, frame: string): Promise<Load> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "commit" });
  const addon = await (await page.waitForSelector(`iframe[src*="${frame}"]`, { timeout: 60_000 })).contentFrame();
  if (!addon) throw new Error(`The page has no ${frame} frame`);
  const seen = await firstSeenAt(addon, 60_000);
  const [navigated, frameRequested] = await Promise.all([navigationStartedAt(page), navigationStartedAt(addon)]);
  await page.close();
  return { fromNavigation: seen - navigated, fromFrameRequest: seen - frameRequested };
}

/**
 * The same page, whose add-on frame's document is replaced by one holding only `markup` and the
 * host's bridge script, which every Connect app loads and without which the host keeps a panel's
 * frame hidden: no script of ours, no stylesheet, no read. Its first row is the floor of this
 * browser, machine and host page in this run: the frame's new renderer process, its first layout
 * and paint, beside the host page's own scripts. What the add-on's frame takes beyond it is ours:
 * scripts, sign-in, reads, render. The document comes from a server on the add-on's loopback
 * address, as the add-on's does: one Playwright made up would be of no address, and Chromium's
 * local network access checks would then refuse it the emulated Jira's bridge script on localhost.
 */
async function withEmptyFrame<T>(harness: Harness, markup: string, work: (address: string) => Promise<T>): Promise<T> {
  const bridge = `<script async src="${harness.emulatorUrl}/atlassian-connect/all.js"></script>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>rmCloud</title></head><body>${markup}${bridge}</body></html>`,
    );
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, ANOTHER_SITE, () => resolve((server.address() as AddressInfo).port)),
  );
  try {
    return await work(`http://${ANOTHER_SITE}:${port}/`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * The frame's document request (its address names `frame`, as the iframe the load waits for does)
 * through Playwright, sent on to `emptyFrame` when given, else as it was: ours and the empty frame's
 * take the same detour through the bench's process, so the ratio does not count it against one only
 * (7 cold loads each way: the html's first byte at 61 ms routed, 84 not; nothing shows). The warm
 * loads are not routed: a route turns the browser's cache off, and the cache is what they measure.
 */
async function routeFrameDocument(context: BrowserContext, harness: Harness, frame: string, emptyFrame?: string): Promise<void> {
  const origin = new URL(harness.addonUrl).origin;
  await context.route(
    (url) => url.origin === origin && url.pathname.includes(frame),
    (route) => route.continue(emptyFrame ? { url: emptyFrame } : undefined),
  );
}

/** Cold and warm first rows, and the empty frame's (cold) in the same runs. */
export type Timings = { cold: Load; warm: Load; emptyFrame: Load };

const medianLoad = (loads: Load[]): Load => ({
  fromNavigation: median(loads.map((load) => load.fromNavigation)),
  fromFrameRequest: median(loads.map((load) => load.fromFrameRequest)),
});

/**
 * Medians of RUNS loads each: cold (a new browser context every time: empty cache, new sign-in),
 * each followed by a cold load of the same page with the empty frame holding `rowMarkup`, and warm (one context,
 * loaded once unmeasured, so the assets come from the browser's cache).
 */
export async function firstRowTimings(
  harness: Harness,
  pagePath: string,
  frame: string,
  selector: string,
  rowMarkup: string,
): Promise<Timings> {
  const url = `${harness.emulatorUrl}${pagePath}`;
  const watchingContext = async () => {
    const context = await harness.browser.newContext();
    await watchFirstSeen(context, { selector });
    return context;
  };
  const coldLoad = async (emptyFrame?: string) => {
    const context = await watchingContext();
    try {
      await routeFrameDocument(context, harness, frame, emptyFrame);
      return await timedLoad(context, url, frame);
    } finally {
      await context.close();
    }
  };
  const cold: Load[] = [];
  const emptyFrame: Load[] = [];
  await withEmptyFrame(harness, rowMarkup, async (address) => {
    for (let run = 0; run < RUNS; run++) {
      cold.push(await coldLoad());
      emptyFrame.push(await coldLoad(address));
    }
  });
  const context = await watchingContext();
  await timedLoad(context, url, frame);
  const warm: Load[] = [];
  for (let run = 0; run < RUNS; run++) warm.push(await timedLoad(context, url, frame));
  await context.close();
  return { cold: medianLoad(cold), warm: medianLoad(warm), emptyFrame: medianLoad(emptyFrame) };
}

/** The row that sets a page's cold first row against the empty frame's: how far above the browser's own floor it is. */
export function versusEmptyFrame(name: string, context: BenchContext, { cold, emptyFrame }: Timings): BenchResult {
  return {
    case: `${name}-cold-frame-to-row-vs-empty-frame`,
    note: `${JIRA_LATENCY_NOTE}; baseline: the same page, its frame's document holding only the row and the host's bridge script`,
    db: context.db,
    ours: round(cold.fromFrameRequest, 1),
    baseline: round(emptyFrame.fromFrameRequest, 1),
    unit: "ms",
    ratio: round(cold.fromFrameRequest / emptyFrame.fromFrameRequest),
  };
}
