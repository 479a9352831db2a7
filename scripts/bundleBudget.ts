import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants, gzipSync } from "node:zlib";

/**
 * The size budget of the first screen (issue 39): what an html entry of the production build makes
 * the browser fetch before its first row can render, gzipped. That is every script and stylesheet the
 * built html names (the entry chunk, its modulepreloads, the host loader, the CSS) and, through Vite's
 * manifest, every chunk those import statically. Chunks loaded by import() (dialogs, other screens,
 * Sentry) are not counted: they come when the route, dialog or focus needing them does.
 *
 * `npx tsx scripts/bundleBudget.ts [dist/client]` prints the figures and fails over budget;
 * test/bundleBudget.test.ts runs the same check on a fresh build in `npm test`.
 */
export const BUDGETS_KB: Record<string, number> = {
  /** The requirements page (and every other screen of the main entry). */
  "index.html": 180,
  /** The Jira issue panel. */
  "panel.html": 55,
};

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

const readManifest = (distDir: string) => JSON.parse(fs.readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;

export type InitialLoad = { entry: string; files: { file: string; gzipBytes: number }[]; gzipBytes: number };

/** The local files an html page names in `<script src>` and `<link href>` (stylesheets, preloads, modulepreloads). */
function filesNamedByHtml(html: string, base: string): string[] {
  const files: string[] = [];
  for (const tag of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const text = tag[0];
    if (tag[1] === "link" && !/\brel="(stylesheet|modulepreload|preload)"/.test(text)) continue;
    const url = /\b(?:src|href)="([^"]+)"/.exec(text)?.[1];
    if (url?.startsWith(base)) files.push(url.slice(base.length));
  }
  return files;
}

const gzipBytes = (file: string) => gzipSync(fs.readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length;

/** Every file the built `entry` (e.g. "index.html") loads before anything is imported on demand. */
export function initialLoad(distDir: string, entry: string, base = "/app/"): InitialLoad {
  const manifest = readManifest(distDir);
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  for (const file of filesNamedByHtml(fs.readFileSync(path.join(distDir, entry), "utf8"), base)) {
    const key = byFile.get(file);
    if (key) visit(key);
    else files.add(file);
  }
  const measured = [...files].map((file) => ({ file, gzipBytes: gzipBytes(path.join(distDir, file)) }));
  measured.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { entry, files: measured, gzipBytes: measured.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0) };
}

/**
 * The other html entries whose script `entry` could load, at once or on demand. Loading another
 * page's entry chunk would start that page inside this one: vite.config.ts gathers the main pages'
 * first-screen modules into a chunk that imports their entry chunk, which the panel must never reach.
 */
export function otherEntriesReached(distDir: string, entry: string): string[] {
  const manifest = readManifest(distDir);
  const reached = new Set<string>();
  const waiting = [entry];
  while (waiting.length > 0) {
    const key = waiting.pop() ?? "";
    if (reached.has(key)) continue;
    reached.add(key);
    waiting.push(...(manifest[key]?.imports ?? []), ...(manifest[key]?.dynamicImports ?? []));
  }
  return [...reached].filter((key) => key !== entry && manifest[key]?.isEntry);
}

/** Each entry's initial load against its budget; `over` lists the entries that exceed theirs. */
export function checkBudgets(distDir: string): { loads: InitialLoad[]; over: InitialLoad[] } {
  const loads = Object.keys(BUDGETS_KB).map((entry) => initialLoad(distDir, entry));
  return { loads, over: loads.filter((load) => load.gzipBytes > (BUDGETS_KB[load.entry] ?? 0) * 1024) };
}

export function describeLoad(load: InitialLoad): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const lines = load.files.map(({ file, gzipBytes }) => `  ${kb(gzipBytes).padStart(7)} KB  ${file}`);
  return [`${load.entry}: ${kb(load.gzipBytes)} KB gzipped (budget ${BUDGETS_KB[load.entry]} KB)`, ...lines].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { loads, over } = checkBudgets(path.resolve(process.argv[2] ?? path.join(root, "dist", "client")));
  for (const load of loads) console.log(describeLoad(load));
  if (over.length > 0) {
    console.error(`Over budget: ${over.map((load) => load.entry).join(", ")}`);
    process.exitCode = 1;
  }
}
