import { CONFIG_DEFAULTS, localUrl } from "../common/configDefaults.js";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { seedUsers } from "../emulator/seed/users.js";
import { type Emulator, startEmulator } from "../emulator/server.js";
import { DEFAULT_SITE } from "../emulator/sites.js";
import { findInstallationByClientKey } from "../server/db/installationStore.js";
import { startAddon } from "../server/main.js";
import { seedDemoProject } from "../server/services/demo/seedDemoProject.js";

/**
 * `npm start`: the add-on (embedded defaults) and the emulated Jira/Confluence it installs into.
 * PORT (3000), EMULATOR_PORT (2990), DATA_DIR (.data); BASE_URL and ADDON_URL follow PORT.
 */

export type AfterInstall = (context: { emulator: Emulator; addonUrl: string; env: NodeJS.ProcessEnv }) => Promise<void>;

/** Steps that run once the add-on is installed into the emulator's sites (demo data seeding hooks in here). */
export const afterInstallSteps: AfterInstall[] = [];

async function waitUntilAnswering(url: string, what: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what} did not answer at ${url}`);
}

function openBrowser(url: string): void {
  if (process.env.CI || process.env.NO_BROWSER) return;
  try {
    const child = spawn(process.platform === "darwin" ? "open" : "xdg-open", [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No desktop to open a browser on; the printed URL is enough.
  }
}

const port = Number(process.env.PORT ?? CONFIG_DEFAULTS.PORT);
const emulatorPort = Number(process.env.EMULATOR_PORT ?? CONFIG_DEFAULTS.EMULATOR_PORT);
const addonUrl = (process.env.ADDON_URL ?? process.env.BASE_URL ?? localUrl(port)).replace(/\/$/, "");
const emulatorUrl = localUrl(emulatorPort);
const dataDir = process.env.DATA_DIR ?? CONFIG_DEFAULTS.DATA_DIR;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  BASE_URL: process.env.BASE_URL ?? addonUrl,
  DATA_DIR: dataDir,
  CONNECT_KEYS_CDN_URL: process.env.CONNECT_KEYS_CDN_URL ?? `${emulatorUrl}/_emulator/connect-keys`,
};

// A fresh data folder has no emulator sites yet: that is when the demo is seeded (SEED_DEMO=false turns it off).
const freshDataFolder = !fs.existsSync(path.join(dataDir, "emulator", "sites.json"));
if (freshDataFolder && process.env.SEED_DEMO !== "false") {
  afterInstallSteps.push(async ({ emulator }) => {
    const site = emulator.sites.get(DEFAULT_SITE);
    const installation = site && (await findInstallationByClientKey(addon.deps.db, site.jira.clientKey));
    if (!site || !installation) return;
    const actor = { tenantId: installation.tenantId, accountId: seedUsers[0]?.accountId ?? "demo" };
    for (const project of site.content.projects) {
      const issues = site.content.issues.filter((issue) => issue.projectId === project.id);
      await seedDemoProject(addon.deps, actor, { projectId: Number(project.id), projectKey: project.key, issues });
    }
    console.log(`Seeded demo requirements into ${site.content.projects.map((project) => project.name).join(", ")}.`);
  });
}

const addon = await startAddon(env);
await waitUntilAnswering(`${addonUrl}/healthz`, "The add-on");
// The emulator holds every site's shared secret: it listens where the add-on does (127.0.0.1 unless HOST says otherwise).
const emulator = await startEmulator({
  port: emulatorPort,
  host: addon.deps.config.host,
  addonUrl,
  dataDir,
  outboxDir: process.env.OUTBOX_DIR,
  installOnStart: false,
});
await waitUntilAnswering(`${emulator.url}/_emulator/sites`, "The emulator");
const results = await emulator.installAll();
const failed = results.filter((r) => r.status !== 200 && r.status !== 204);
if (failed.length > 0) console.error("Installing the add-on into the emulator failed:", failed);
for (const step of afterInstallSteps) await step({ emulator, addonUrl, env });

console.log(`\nrmCloud is running. Open ${emulator.url}\n`);
openBrowser(emulator.url);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping...");
    void Promise.allSettled([emulator.stop(), addon.stop()]).then(() => process.exit(0));
  });
}
