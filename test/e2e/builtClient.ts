import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The browser specs' global setup: the client built once, as production builds it, and served by
 * every spec's add-on (CLIENT_DIST_DIR, which the harness passes on with the rest of the environment).
 * Through Vite's development server each spec's add-on compiled hundreds of modules on its first
 * page load and each lazy screen on first use: 10–30 s a spec on two cores, and a flaky one under load.
 */
export default async function buildClientOnce(): Promise<() => void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-e2e-client-"));
  const { build } = await import("vite");
  // Vitest runs with NODE_ENV=test, which would build React's development code.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: path.resolve("vite.config.ts"), logLevel: "error", build: { outDir } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  process.env.CLIENT_DIST_DIR = outDir;
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
