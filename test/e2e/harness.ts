import { CONFIG_DEFAULTS } from "../../common/configDefaults.js";
import fs from "node:fs";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Frame, type Page } from "playwright-core";
import { type Emulator, startEmulator } from "../../emulator/server.js";
import type { AppDeps } from "../../server/deps.js";
import { startAddon } from "../../server/main.js";
import { createOwnDatabase } from "../helpers/ownDatabase.js";

/**
 * The whole product on this machine for browser specs: the add-on (in-process, embedded PGlite in
 * a temporary folder, or with `postgresUrl` a database of its own on that PostgreSQL server, dropped
 * at stop), the emulated Jira/Confluence, and Debian's Chromium through playwright-core.
 * Nothing is downloaded: CHROMIUM_PATH or /usr/bin/chromium must exist.
 */

export type Harness = {
  /** Launched unless startHarness was told `browser: false`. */
  browser: Browser;
  emulator: Emulator;
  emulatorUrl: string;
  addonUrl: string;
  dataDir: string;
  sites: Emulator["sites"];
  /** The add-on's own dependencies (its database above all), for specs that seed thousands of rows. */
  addonDeps: AppDeps;
  newPage(): Promise<Page>;
  stop(): Promise<void>;
};

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function tryPort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on("error", () => resolve(undefined));
    server.listen(port, () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A free port. The add-on's development server derives its HMR port as PORT + 21000, so its port
 * is taken from 20000-40000 rather than the kernel's ephemeral range (up to 60999).
 */
export async function freePort(range?: { from: number; to: number }): Promise<number> {
  if (!range) {
    const port = await tryPort(0);
    if (port) return port;
    throw new Error("No free port");
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryPort(range.from + Math.floor(Math.random() * (range.to - range.from)));
    if (port) return port;
  }
  throw new Error(`No free port in ${range.from}-${range.to}`);
}

/**
 * A name for the add-on that makes it another site than the emulator's localhost, as Jira
 * (*.atlassian.net) and an add-on always are: Chromium then gives the add-on's iframe a renderer
 * process of its own, and (here, as in a browser that blocks third-party site data) denies it
 * storage. On the same site (localhost and localhost) the iframe's scripts wait for the host
 * page's on one main thread.
 */
export const ANOTHER_SITE = "127.0.0.1";

/**
 * `addonHost`: the name the add-on is reached by, "localhost" like the emulator unless told
 * (ANOTHER_SITE: the bench cases that time page loads, and the test of denied storage).
 */
export async function startHarness(
  options: { addonEnv?: Record<string, string>; browser?: boolean; postgresUrl?: string; addonHost?: string } = {},
): Promise<Harness> {
  const database = options.postgresUrl ? await createOwnDatabase(options.postgresUrl, "rmcloud_e2e") : undefined;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rmcloud-e2e-"));
  // The add-on must know the key server before the emulator installs it, so both ports are chosen first.
  const [emulatorPort, addonPort] = [await freePort(), await freePort({ from: 20000, to: 40000 })];
  const emulatorUrl = `http://localhost:${emulatorPort}`;
  const addonUrl = `http://${options.addonHost ?? "localhost"}:${addonPort}`;
  const outboxDir = path.join(dataDir, "outbox");
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const addon = await startAddon({
    ...inherited,
    NODE_ENV: "test",
    PORT: String(addonPort),
    BASE_URL: addonUrl,
    DATA_DIR: path.join(dataDir, "addon"),
    OUTBOX_DIR: outboxDir,
    CONNECT_KEYS_CDN_URL: `${emulatorUrl}/_emulator/connect-keys`,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    SEED_DEMO: "false",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.addonEnv,
  });
  const emulator = await startEmulator({ port: emulatorPort, addonUrl, dataDir, outboxDir, log: () => {} });
  const failed = emulator.installResults.filter((r) => r.status !== 200 && r.status !== 204);
  if (failed.length > 0) {
    await emulator.stop();
    await addon.stop();
    await database?.drop();
    throw new Error(`The emulator could not install the add-on: ${JSON.stringify(failed)}`);
  }
  const browser =
    options.browser === false
      ? (undefined as unknown as Browser)
      : await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? CONFIG_DEFAULTS.CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return {
    browser,
    emulator,
    emulatorUrl: emulator.url,
    addonUrl,
    dataDir,
    sites: emulator.sites,
    addonDeps: addon.deps,
    newPage: async () => (await browser.newContext()).newPage(),
    stop: async () => {
      await browser?.close();
      await emulator.stop();
      await addon.stop();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** rmCloud's API as the user whose app token a spec read from the add-on's session. */
export async function addonApi<T = unknown>(addonUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${addonUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The app token the server signed an add-on page in with (written into the page): there whether or
 * not the browser lets the frame use its storage (client/api/pageStorage.ts).
 */
export async function signedInToken(frame: Frame): Promise<string> {
  return (await frame.evaluate(() => document.querySelector('meta[name="rmcloud-signed-in"]')?.getAttribute("content"))) ?? "";
}

/** The add-on's iframe on an emulator page (optionally the one whose URL contains `urlPart`), once it has loaded. */
export async function addonFrame(page: Page, addonUrl: string, urlPart = ""): Promise<Frame> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const frame = page.frames().find((f) => f.url().startsWith(addonUrl) && f.url().includes(urlPart));
    if (frame) {
      await frame.waitForLoadState("domcontentloaded");
      return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`No add-on iframe from ${addonUrl}${urlPart ? ` containing ${urlPart}` : ""} on ${page.url()}`);
}
