import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
