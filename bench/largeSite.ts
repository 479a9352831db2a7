import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Frame, Page } from "playwright-core";
import { DEFAULT_SITE } from "../emulator/sites.js";
import { findInstallationByClientKey } from "../server/db/installationStore.js";
import { seedLargeProject } from "../server/scripts/seedLarge.js";
import { ANOTHER_SITE, addonFrame, type Harness, startHarness } from "../test/e2e/harness.js";
import { firstSeenAt, navigationStartedAt, type Target, watchFirstSeen } from "./firstSeen.js";
import { median, round } from "./measure.js";
import type { BenchResult } from "./types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The emulator's projects: PUMP holds the large foldered project, ROVER 100,000 at its top level, PAY the small baseline. */
export const PROJECTS = { large: { id: 10000, key: "PUMP" }, flat: { id: 10001, key: "ROVER" }, small: { id: 10002, key: "PAY" } };
export const RUNS = 5;

/**
 * The add-on in production mode serving `npm run build`'s dist/client next to the emulated Jira,
 * its default site seeded (seed:large): PUMP with 100,000 requirements in 500 folders (the first
 * holding 5,000) and 500,000 issue links, and PAY with 1,000 requirements in 10 folders (the first
 * holding 50) as the baseline of the same shape; with `flat`, ROVER with 100,000 at its top level.
 * On the embedded PGlite, or with `postgresUrl` on a database of its own on that server (a bench
 * case's postgres run), as production runs.
 */
export async function startLargeSite({ flat, postgresUrl }: { flat: boolean; postgresUrl?: string }) {
  const { build } = await import("vite");
  await build({ configFile: path.join(root, "vite.config.ts"), logLevel: "error" });
  // In production ACE accepts installs only from Atlassian's hosts (README, AC_HOST_WHITELIST); it reads process.env.
  const whitelist = process.env.AC_HOST_WHITELIST;
  process.env.AC_HOST_WHITELIST = "localhost";
  const harness = await startHarness({
    addonHost: ANOTHER_SITE,
    postgresUrl,
    addonEnv: {
      NODE_ENV: "production",
      APP_TOKEN_SECRET: "bench-only-secret-0123456789-abcdefghij",
      FRAME_ANCESTORS: "http://localhost:*",
    },
  }).finally(() => {
    if (whitelist === undefined) delete process.env.AC_HOST_WHITELIST;
    else process.env.AC_HOST_WHITELIST = whitelist;
  });
  const site = harness.sites.get(DEFAULT_SITE);
  const installation = site && (await findInstallationByClientKey(harness.addonDeps.db, site.jira.clientKey));
  if (!installation) throw new Error("The emulator's default site is not installed");
  const db = harness.addonDeps.db;
  const started = performance.now();
  const large = await seedLargeProject(db, installation.tenantId, { projectId: PROJECTS.large.id });
  const small = await seedLargeProject(db, installation.tenantId, {
    projectId: PROJECTS.small.id,
    requirements: 1000,
    folders: 10,
    bigFolderRequirements: 50,
  });
  if (flat) await seedLargeProject(db, installation.tenantId, { projectId: PROJECTS.flat.id, folders: 0, linksPerRequirement: 0 });
  process.stdout.write(`  seeded in ${Math.round((performance.now() - started) / 1000)} s\n`);
  // The seed's pages written out now, not by a checkpoint in the middle of the samples (a disk busy
  // for seconds): the cases measure a site at rest, as a tenant of that size is between imports.
  if (postgresUrl) await db.raw("CHECKPOINT");
  return { harness, bigFolders: { large: large.folderIds[0] as number, small: small.folderIds[0] as number } };
}

/**
 * A fresh browser context (cold cache, new sign-in) on one of the add-on's project pages; answers
 * the add-on's frame and, when `watch` names an element, the ms from navigation until the page
 * painted it (bench/firstSeen.ts).
 */
export async function openProjectPage(
  harness: Harness,
  project: { id: number; key: string },
  state: string,
  watch?: Target,
): Promise<{ page: Page; frame: () => Promise<Frame>; msUntilSeen: () => Promise<number> }> {
  const context = await harness.browser.newContext();
  if (watch) await watchFirstSeen(context, watch);
  const page = await context.newPage();
  await page.goto(
    `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=${project.key}&project.id=${project.id}#!${project.id}-${state}`,
    { waitUntil: "commit" },
  );
  const frame = () => addonFrame(page, harness.addonUrl);
  const msUntilSeen = async () => {
    if (!watch) throw new Error("openProjectPage was not told what to watch for");
    const seen = await firstSeenAt(await frame());
    return seen - (await navigationStartedAt(page));
  };
  return { page, frame, msUntilSeen };
}

/**
 * Medians of `runs` samples of each, taken in turns (one of each, `runs` times): on a shared machine the
 * load drifts over the minutes a browser case takes, and it must fall on both sides alike.
 */
export async function alternatingMedians(
  first: () => Promise<number>,
  second: () => Promise<number>,
  runs = RUNS,
): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let run = 0; run < runs; run++) {
    samples[0].push(await first());
    samples[1].push(await second());
  }
  return [median(samples[0]), median(samples[1])];
}

/** The add-on page's JavaScript heap in bytes (Chromium's performance.memory). */
export const usedHeapBytes = (frame: Frame) =>
  frame.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? Number.NaN);

/**
 * A row of a browser case, its note saying what was timed and the machine's load as it ended: these
 * times are the page's whole way through Chromium, which on a shared machine follows its load.
 */
export function browserResult(
  db: BenchResult["db"],
  row: { case: string; ours: number; baseline: number; unit?: string; what?: string },
): BenchResult {
  const load = `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`;
  return {
    case: row.case,
    db,
    ours: round(row.ours),
    baseline: round(row.baseline),
    unit: row.unit ?? "ms",
    ratio: round(row.ours / row.baseline),
    note: `Chromium, production build${row.what ? `: ${row.what}` : ""}; ${load}`,
  };
}
