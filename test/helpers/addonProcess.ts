import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import type { HostClient } from "../../server/connect/hostClient.js";
import { HostCallError } from "../../server/connect/hostClientImpl.js";
import type { Db } from "../../server/db/knex.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** What production signs with, at the length production insists on. */
export const PROCESS_TOKEN_SECRET = "fault-test-app-token-secret-0123456789abcdef";

export type AddonProcess = {
  child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Everything it logged, for a failing test's message. */
  output: () => string;
};

/**
 * The add-on's own entry point (`server/main.ts`, or `server/worker.ts` for a job worker) in a process
 * of its own, as production runs it (NODE_ENV=production, from source through tsx), resolved once it
 * has logged that it is listening or working.
 */
export async function startAddonProcess(entry: "main" | "worker", env: Record<string, string>): Promise<AddonProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server", `${entry}.ts`)], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      APP_TOKEN_SECRET: PROCESS_TOKEN_SECRET,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SEED_DEMO: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = entry === "main" ? "rmCloud add-on listening" : "rmCloud job worker started";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => reject(new Error(`server/${entry}.ts exited with ${code} before it was ready:\n${output}`)));
  });
  return { child, exited, output: () => output };
}

/** A port free right now on the loopback, for a process that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type StubHost = { url: string; close: () => Promise<void> };

/**
 * Jira over HTTP for the add-on's processes: each REST call is answered by `host` (a test's fake
 * Jira), a HostCallError as its status and Retry-After. Points the tenant's installation at it.
 */
export async function startStubHost(db: Db, tenantId: string, host: HostClient): Promise<StubHost> {
  const app = express();
  app.use(express.json());
  app.use(async (req, res) => {
    try {
      const answer = await host.call(tenantId, "jira", { method: req.method as "GET", path: req.originalUrl, body: req.method === "GET" ? undefined : req.body });
      res.status(200).json(answer ?? {});
    } catch (error) {
      const failure = error instanceof HostCallError ? error : new HostCallError(500, "", String(error));
      if (failure.retryAfterSeconds !== undefined) res.set("Retry-After", String(failure.retryAfterSeconds));
      res.status(failure.status).json({ errorMessages: [failure.message] });
    }
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await db("installations").where({ tenant_id: tenantId }).update({ base_url: url });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
