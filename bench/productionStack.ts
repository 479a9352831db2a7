import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../test/e2e/harness.js";
import { createOwnDatabase, type OwnDatabase } from "../test/helpers/ownDatabase.js";
import { startEmulatedJira } from "./emulatedJira.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One process of the stack: its name in messages, and where its output goes (shown when it fails). */
type Started = { name: string; child: ChildProcess; log: string };

/** What the emulator tells of a site (its `/_emulator/sites` entry). */
export type EmulatedSiteInfo = { name: string; baseUrl: string; jira: { clientKey: string } };

/**
 * rmCloud as production runs it, on this machine: `npm run build`'s compiled JavaScript with
 * NODE_ENV=production, two API processes (JOB_WORKERS=false) on two ports sharing one PostgreSQL
 * database made for the run, one `worker:production` process, and the emulated Jira (a process of
 * its own) installing the add-on through its signed lifecycle. Each API process also serves the bare
 * endpoint on a port of its own (bench/apiProcess.ts, `bareUrls`). `stop()` ends every process it
 * started and drops the database, whatever happened before.
 */
export class ProductionStack {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-load-"));
  readonly apiUrls: string[] = [];
  /** The bare endpoint of each API process, in the same order as `apiUrls`. */
  readonly bareUrls: string[] = [];
  emulatorUrl = "";
  private readonly started: Started[] = [];
  private database: OwnDatabase | undefined;
  private readonly secret = randomBytes(32).toString("hex");

  constructor(private readonly adminUrl: string) {}

  get databaseUrl(): string {
    if (!this.database) throw new Error("createDatabase() first");
    return this.database.url;
  }

  async createDatabase(): Promise<void> {
    this.database = await createOwnDatabase(this.adminUrl, "rmcloud_load");
  }

  /** `npm run build`: the client bundle and the compiled server the processes run. */
  async build(): Promise<void> {
    await this.run("build", "npm", ["run", "build"]);
  }

  /** Runs a command to its end; its output goes to a log file, printed if it fails. */
  private run(name: string, command: string, args: string[]): Promise<void> {
    const { child, log } = this.spawn(name, command, args, process.env);
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${code}:\n${tail(log)}`))));
    });
  }

  private spawn(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Started {
    const log = path.join(this.dataDir, `${name}.log`);
    const out = fs.openSync(log, "a");
    const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", out, out] });
    fs.closeSync(out);
    const started = { name, child, log };
    this.started.push(started);
    return started;
  }

  /** The settings every process of the product shares, as an operator would set them. */
  private productEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
    return {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: this.databaseUrl,
      // The first API process is the add-on's public address (the descriptor's baseUrl); both answer the API.
      BASE_URL: this.apiUrls[0],
      HOST: "127.0.0.1",
      DATA_DIR: path.join(this.dataDir, "addon"),
      APP_TOKEN_SECRET: this.secret,
      CONNECT_KEYS_CDN_URL: `${this.emulatorUrl}/_emulator/connect-keys`,
      // In production ACE accepts installs only from Atlassian's hosts (README, AC_HOST_WHITELIST).
      AC_HOST_WHITELIST: "localhost",
      SEED_DEMO: "false",
      ...extra,
    };
  }

  /**
   * Ports first (the add-on must know the emulator's key server, the emulator the add-on's URL),
   * then the emulator, the API processes and the worker, each answering before the next starts.
   */
  async start(apiEnv: Record<string, string> = {}): Promise<void> {
    const emulatorPort = await freePort();
    const apiPorts = [await freePort(), await freePort()];
    this.apiUrls.push(...apiPorts.map((port) => `http://localhost:${port}`));
    for (const _ of apiPorts) this.bareUrls.push(`http://127.0.0.1:${await freePort()}`);
    const jira = await startEmulatedJira(path.join(this.dataDir, "emulator"), 0, { addonUrl: this.apiUrls[0], port: emulatorPort });
    this.started.push({ name: "emulator", child: jira.process, log: "" });
    this.emulatorUrl = jira.url;
    await this.startApis(apiEnv);
    const worker = this.spawn("worker", process.execPath, ["dist/server/server/worker.js"], this.productEnv({}));
    await waitFor(() => /job worker started/.test(fs.readFileSync(worker.log, "utf8")) || exited(worker), "the worker");
    if (exited(worker)) throw new Error(`the worker exited:\n${tail(worker.log)}`);
  }

  /**
   * The two API processes, one after the other (the first migrates the new database): the compiled
   * add-on, started by bench/apiProcess.ts with its bare endpoint beside it.
   */
  async startApis(apiEnv: Record<string, string> = {}): Promise<void> {
    for (const [index, url] of this.apiUrls.entries()) {
      const api = this.spawn(
        `api${index + 1}`,
        process.execPath,
        [
          // LOAD_PROFILE_DIR: the first API process writes a CPU profile there when it stops (node --cpu-prof).
          ...(index === 0 && process.env.LOAD_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.LOAD_PROFILE_DIR}`] : []),
          "--import",
          "tsx",
          "bench/apiProcess.ts",
        ],
        this.productEnv({ ...apiEnv, PORT: new URL(url).port, BARE_PORT: new URL(this.bareUrls[index] ?? "").port, JOB_WORKERS: "false" }),
      );
      await waitFor(
        async () =>
          exited(api) ||
          (await fetch(`${url}/healthz`)
            .then((res) => res.ok)
            .catch(() => false)),
        `API process ${index + 1}`,
      );
      if (exited(api)) throw new Error(`API process ${index + 1} exited:\n${tail(api.log)}`);
    }
  }

  /** Stops the API processes (SIGTERM, as an orchestrator does), to start them again with other settings. */
  async stopApis(): Promise<void> {
    const apis = this.started.filter((started) => started.name.startsWith("api"));
    await Promise.all(apis.map(stopProcess));
    for (const api of apis) this.started.splice(this.started.indexOf(api), 1);
  }

  /** Installs the add-on into the emulator's default site and `more` new ones, through the signed lifecycle. */
  async installSites(more: string[]): Promise<EmulatedSiteInfo[]> {
    const control = `${this.emulatorUrl}/_emulator/sites`;
    const installed = await fetch(`${control}/default/install`, { method: "POST" });
    if (!installed.ok) throw new Error(`installing into the default site answered ${installed.status}`);
    for (const name of more) {
      const res = await fetch(control, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
      if (res.status !== 201) throw new Error(`creating site ${name} answered ${res.status}: ${await res.text()}`);
    }
    return (await (await fetch(control)).json()) as EmulatedSiteInfo[];
  }

  /**
   * Signs in as the SPA does: the emulated Jira signs a context token for `accountId` (its
   * AP.context.getToken), which POST /api/exchange-token turns into rmCloud's app token.
   */
  async signIn(site: EmulatedSiteInfo, accountId: string): Promise<string> {
    const context = await fetch(`${site.baseUrl}/_bridge/token`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `emulator_user=${encodeURIComponent(accountId)}` },
      body: JSON.stringify({ product: "jira" }),
    });
    const { token: jwt } = (await context.json()) as { token: string };
    const res = await fetch(`${this.apiUrls[0]}/api/exchange-token`, {
      method: "POST",
      headers: { authorization: `JWT ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ fullPath: "/", method: "GET", product: "jira" }),
    });
    if (!res.ok) throw new Error(`signing in to ${site.name} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  }

  /** Every process it started, then the database and the files; each step runs even when one before failed. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.started.map(stopProcess));
    await this.database?.drop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

const exited = (started: Started) => started.child.exitCode !== null || started.child.signalCode !== null;

/** SIGTERM, and SIGKILL after 15 s: a process that will not stop must not outlive the bench. */
async function stopProcess(started: Started): Promise<void> {
  if (exited(started)) return;
  const gone = new Promise((resolve) => started.child.once("exit", resolve));
  started.child.kill("SIGTERM");
  const timer = setTimeout(() => started.child.kill("SIGKILL"), 15_000);
  await gone;
  clearTimeout(timer);
}

async function waitFor(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const tail = (log: string) => (log && fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").slice(-40).join("\n") : "");
