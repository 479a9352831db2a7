import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Whether the module at `moduleUrl` is the file node (or tsx) was started with, rather than one
 * imported by another. Node loads the entry through its real path and may have been given a symlink
 * or a path without the extension (`node dist/server/server/main`), so argv[1] is resolved the same
 * way before comparing; a plain string comparison would make such a start exit silently.
 */
export function isEntryPoint(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (!argv1) return false;
  const modulePath = fileURLToPath(moduleUrl);
  return [argv1, `${argv1}${path.extname(modulePath)}`].some((candidate) => realPathOf(candidate) === modulePath);
}

function realPathOf(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The compiled files (dist/) are what production runs, and in development mode they would import
 * Vite (a dev dependency) and sign tokens with the public development secret. So a compiled entry
 * point started without NODE_ENV runs in production; from source (tsx) the default stays development.
 * Set on the environment itself, since Express reads NODE_ENV from there too.
 */
export function defaultToProductionWhenCompiled(moduleUrl: string, env: NodeJS.ProcessEnv = process.env): void {
  if (moduleUrl.endsWith(".js")) env.NODE_ENV ??= "production";
}
