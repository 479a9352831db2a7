import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostClient } from "../server/connect/hostClient.js";
import type { Db } from "../server/db/knex.js";
import { createTestDatabase } from "../test/helpers/db.js";
import { type EmulatedSite, installOnEmulatedJira } from "../test/helpers/emulatedSiteInstall.js";
import type { BenchContext } from "./types.js";

/** The emulated Jira's PUMP project, where the extra issues go. */
export const PUMP_ID = 10000;

type EmulatedJira = { url: string; process: ChildProcess };

/**
 * Milliseconds the emulated Jira waits before answering each REST call (its fault endpoint), as
 * a Jira across the internet takes: a case calling Jira on localhost would flatter whatever calls
 * it most. Every case on the emulated Jira says so in its results (JIRA_LATENCY_NOTE).
 */
export const JIRA_LATENCY_MS = 50;
export const JIRA_LATENCY_NOTE = `emulated Jira answers each call ${JIRA_LATENCY_MS} ms late`;

/** Makes every REST call to the emulator at `url` answer JIRA_LATENCY_MS late. */
export async function addJiraLatency(url: string): Promise<void> {
  const res = await fetch(`${url}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pathPattern: "/rest/", status: 200, delayMs: JIRA_LATENCY_MS }),
  });
  if (res.status !== 201) throw new Error(`the emulator refused the latency: ${res.status}`);
}

/**
 * The emulator in a process of its own, seeded with `extraIssues` issues in PUMP, so the RSS
 * measured by a case is its own alone: Jira's answers cost the emulator memory, not us. It installs
 * nothing by itself; given the add-on's URL (and a port, when the add-on must know it beforehand)
 * its control API installs the add-on through the signed lifecycle.
 */
export async function startEmulatedJira(
  dataDir: string,
  extraIssues: number,
  { addonUrl = "http://127.0.0.1:9", port = 0 }: { addonUrl?: string; port?: number } = {},
): Promise<EmulatedJira> {
  const code = `import { startEmulator } from ${JSON.stringify(path.resolve("emulator/server.ts"))};
const emulator = await startEmulator({ port: ${port}, addonUrl: ${JSON.stringify(addonUrl)}, dataDir: ${JSON.stringify(dataDir)}, seed: { extraIssues: { PUMP: ${extraIssues} } }, installOnStart: false, log: () => {} });
console.log("EMULATOR " + emulator.url);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /EMULATOR (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { url, process: child };
}

/**
 * A site of ours installed on the emulated Jira's first site, and the host client that reads
 * Jira as the app for it.
 */
async function installedSite(db: Db, jira: EmulatedJira): Promise<{ tenantId: string; hostClient: HostClient }> {
  const [site] = (await (await fetch(`${jira.url}/_emulator/sites`)).json()) as EmulatedSite[];
  if (!site) throw new Error("the emulator has no site");
  return installOnEmulatedJira(db, site);
}

/** Every issue id of PUMP, in id order, read with Jira's JQL search 5000 ids a page. */
export async function pumpIssueIds(hostClient: HostClient, tenantId: string): Promise<string[]> {
  const ids: string[] = [];
  let nextPageToken: string | undefined;
  do {
    const page = await hostClient.call<{ issues: { id: string }[]; nextPageToken?: string }>(tenantId, "jira", {
      method: "POST",
      path: "/rest/api/3/search/jql",
      body: { jql: `project = ${PUMP_ID} ORDER BY id ASC`, fields: ["id"], maxResults: 5000, nextPageToken },
    });
    ids.push(...page.issues.map((issue) => issue.id));
    nextPageToken = page.nextPageToken;
  } while (nextPageToken);
  return ids;
}

export type EmulatedJiraSite = {
  db: Db;
  kind: "pglite" | "postgres";
  tenantId: string;
  hostClient: HostClient;
  /** A directory of this run's own, removed afterwards. */
  dataDir: string;
};

/**
 * A new database with a site of ours installed on an emulated Jira holding `extraIssues` issues
 * in PUMP and answering JIRA_LATENCY_MS late, for the length of `work`; the emulator, the
 * database and the files go afterwards.
 */
export async function withEmulatedJiraSite<T>(
  context: BenchContext,
  extraIssues: number,
  work: (site: EmulatedJiraSite) => Promise<T>,
): Promise<T> {
  const { db, kind, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-jira-"));
  const jira = await startEmulatedJira(dataDir, extraIssues);
  try {
    const { tenantId, hostClient } = await installedSite(db, jira);
    await addJiraLatency(jira.url);
    return await work({ db, kind, tenantId, hostClient, dataDir });
  } finally {
    jira.process.kill();
    await destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
