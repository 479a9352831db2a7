import { realpathSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import tokensBabelPlugin from "@atlaskit/tokens/babel-plugin";
import babel, { defineRolldownBabelPreset } from "@rolldown/plugin-babel";
import react from "@vitejs/plugin-react";
import { visualizer } from "rollup-plugin-visualizer";
import { defineConfig, type Plugin, type Rolldown } from "vite";

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * The Atlaskit themes the app uses (light colours and the default spacing, typography, shape and
 * motion: what `setGlobalTheme({ colorMode: "light" })` loaded at run time) as one stylesheet the
 * html links, so that the first render already has its colours and spacing: token() answers bare CSS
 * variables (var(--ds-space-100)), which these define. index.html carries the matching `data-theme`
 * and `data-color-mode` attributes (Jira's own pages are light); no other theme is built.
 */
const ATLASKIT_THEMES = ["atlassian-light", "atlassian-spacing", "atlassian-typography", "atlassian-shape", "atlassian-motion"];
const THEME_MODULE = "virtual:atlaskit-theme.css";

function atlaskitTheme(): Plugin {
  const themesDir = path.join(
    path.dirname(createRequire(import.meta.url).resolve("@atlaskit/tokens/package.json")),
    "dist",
    "esm",
    "artifacts",
    "themes",
  );
  return {
    name: "rmcloud:atlaskit-theme",
    resolveId: (source) => (source === THEME_MODULE ? `\0${THEME_MODULE}` : undefined),
    async load(id) {
      if (id !== `\0${THEME_MODULE}`) return undefined;
      // Each theme module is `export default "<css>"`: its string literal is the stylesheet.
      const sheets = await Promise.all(
        ATLASKIT_THEMES.map(async (theme) => {
          const source = await readFile(path.join(themesDir, `${theme}.js`), "utf8");
          const literal = /export default ("(?:[^"\\]|\\.)*");/s.exec(source)?.[1];
          if (!literal) throw new Error(`@atlaskit/tokens' ${theme} theme is no longer a CSS string`);
          return JSON.parse(literal) as string;
        }),
      );
      return sheets.join("\n");
    },
  };
}

/**
 * The head's plain scripts written into each page instead of fetched by it: a script in the head
 * that the parser has to wait for would hold up the page for one more round trip (issue 39).
 * host-loader.js starts the bridge's download (all.js, from the host's origin) at once, and
 * early-sign-in.js the token exchange and, once it answers, the page's first reads (common/firstReads.ts),
 * all while the app's modules are still on their way.
 */
const INLINE_SCRIPTS = ["host-loader.js", "early-sign-in.js"];

function inlinePageScripts(): Plugin {
  return {
    name: "rmcloud:inline-page-scripts",
    transformIndexHtml: {
      order: "pre",
      async handler(html) {
        let page = html;
        for (const name of INLINE_SCRIPTS) {
          const tag = `<script src="/${name}"></script>`;
          if (!page.includes(tag)) continue;
          const script = await readFile(fromRoot(`./client/public/${name}`), "utf8");
          page = page.replace(tag, () => `<script>\n${script.trim()}\n</script>`);
        }
        return page;
      },
    },
  };
}

/** The html entries, by the name of their file. */
const ENTRIES = ["index", "panel"] as const;
const entryHtml = (name: string) => fromRoot(`./client/${name}.html`);

/** The html entries whose first load takes `moduleId` in, following static imports up from it. */
function entriesReaching(moduleId: string, context: Rolldown.ChunkingContext): Set<string> {
  const reachedFrom = new Set<string>();
  const seen = new Set<string>();
  const waiting = [moduleId];
  while (waiting.length > 0 && reachedFrom.size < ENTRIES.length) {
    const id = waiting.pop() ?? "";
    if (seen.has(id)) continue;
    seen.add(id);
    const entry = ENTRIES.find((name) => id === entryHtml(name));
    if (entry) reachedFrom.add(entry);
    waiting.push(...(context.getModuleInfo(id)?.importers ?? []));
  }
  return reachedFrom;
}

/**
 * The chunk a module of the first screen goes in: the one both kinds of page load (the main pages
 * and the issue panel), or the main pages' own; the panel's own modules are left to the automatic
 * splitting, which puts them in the panel's entry chunk. Left to it all, the requirements page's
 * first load was 28 small chunks, and over HTTP/1.1's six connections a page waits for them in turns
 * (issue 39). A panel module that the main pages load later too (the reader of an issue's linked
 * requirements, which a dialog of theirs uses) goes in the shared chunk: split off by itself it was
 * one more file, and the panel's three first reads waited behind its six. The main pages' chunk
 * imports their entry chunk, so the panel must never load it (test/bundleBudget.test.ts holds to
 * that); the pages' own scripts (main.tsx, panel.tsx) stay in their entry chunks.
 */
function firstScreenChunk(moduleId: string, context: Rolldown.ChunkingContext): string | undefined {
  const info = context.getModuleInfo(moduleId);
  if (ENTRIES.some((name) => info?.importers.includes(entryHtml(name)))) return undefined;
  const reachedFrom = entriesReaching(moduleId, context);
  if (reachedFrom.size === ENTRIES.length) return "first-screen-shared";
  if (reachedFrom.has("index")) return "first-screen-index";
  const usedLaterToo = [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])].some(
    (importer) => !entriesReaching(importer, context).has("panel"),
  );
  return usedLaterToo ? "first-screen-shared" : undefined;
}

/** Which built files get compressed copies: the scripts and stylesheets (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * A brotli (.br) and a gzip (.gz) copy beside each built script and stylesheet, made once at build at
 * the highest levels, which would be too slow per request: server/spa.ts sends whichever the
 * browser accepts (issue 39).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: "rmcloud:precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "";
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => COMPRESSIBLE.test(file))
          .map(async (file) => {
            const content = await readFile(path.join(dir, file));
            await Promise.all([
              brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).then((out) =>
                writeFile(path.join(dir, `${file}.br`), out),
              ),
              gzipped(content, { level: constants.Z_BEST_COMPRESSION }).then((out) => writeFile(path.join(dir, `${file}.gz`), out)),
            ]);
          }),
      );
    },
  };
}

/**
 * React Router 7's package exports name only its development build, whose warnings and checks cost
 * the first screen about 20 ms of script (remix-run/react-router#14102): a build takes the
 * production files it ships beside it. The development server keeps the warnings.
 */
const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve("react-router/package.json")), "dist", "production");
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, "index.mjs") },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, "dom-export.mjs") },
];

/**
 * Everything Vite serves (modules in development, built assets in production) lives under /app/,
 * apart from our routes: otherwise client/api/*.ts would be asked for at /api/*, the server API.
 *
 * Two html entries: the main app and the issue panel. The panel entry stays light because an issue
 * view opens it on every issue; it must not pull in the main screen's tree, matrix or baselines.
 * scripts/bundleBudget.ts holds both entries to their first-screen budgets (issue 39).
 */
export default defineConfig(({ command }) => ({
  root: fromRoot("./client"),
  base: "/app/",
  publicDir: fromRoot("./client/public"),
  plugins: [
    react(),
    // Atlaskit's own build step for token(): each call becomes its CSS variable (var(--ds-space-100)),
    // so the map of every token's name (38 KB) is not in the first screen's script (issue 39). Only
    // the files that import it go through Babel: the others gain nothing from it (build 8.2 -> 7.5 s).
    babel({
      include: /[/\\]client[/\\].*\.tsx?$/,
      presets: [
        defineRolldownBabelPreset({ preset: { plugins: [tokensBabelPlugin] }, rolldown: { filter: { code: "@atlaskit/tokens" } } }),
      ],
    }),
    atlaskitTheme(),
    inlinePageScripts(),
    precompress(),
    // The bundle report (dist/bundle-report.html, outside the served dist/client): which module weighs what, gzipped.
    visualizer({ filename: fromRoot("./dist/bundle-report.html"), template: "treemap", gzipSize: true, title: "rmCloud bundle" }),
  ],
  resolve: {
    alias: [
      // Atlaskit's feature-gate client answers only Atlassian's own rollouts: a stub that answers "off" (client/vendor/featureGates.ts).
      { find: "@atlaskit/feature-gate-js-client/feature-gates", replacement: fromRoot("./client/vendor/featureGates.ts") },
      ...(command === "build" ? REACT_ROUTER_PRODUCTION : []),
    ],
  },
  // The development server serves files by absolute path (/app/@fs/...); only what the client
  // imports may be read so. Left to Vite's default (the project folder) it handed out .data: the
  // emulator's shared secrets, the install-signing key, the embedded database and stored uploads.
  server: {
    fs: {
      strict: true,
      allow: [fromRoot("./client"), fromRoot("./common"), fromRoot("./node_modules"), realpathSync(fromRoot("./node_modules"))],
    },
  },
  // Atlaskit ships parts (the core icons) as Babel-compiled CommonJS flagged `__esModule`; our
  // `"type": "module"` package would otherwise import their module object instead of the component.
  legacy: { inconsistentCjsInterop: true },
  // Loaded by the import dialog only once a file is chosen: pre-bundled at start, or its first use
  // would make the development server re-bundle its dependencies and reload the page mid-dialog.
  optimizeDeps: { include: ["csv-parse/browser/esm"] },
  build: {
    outDir: fromRoot("./dist/client"),
    emptyOutDir: true,
    // scripts/bundleBudget.ts reads what each html entry loads from the manifest.
    manifest: true,
    // Every browser Jira and Confluence support knows modulepreload; the polyfill was one more request.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: Object.fromEntries(ENTRIES.map((name) => [name, entryHtml(name)])),
      output: {
        // Only the modules the pages import before their first render ($initial), each by itself: a
        // main page's module does not draw the shared ones it imports into the main pages' chunk.
        codeSplitting: { groups: [{ name: firstScreenChunk, tags: ["$initial"], includeDependenciesRecursively: false }] },
      },
    },
  },
}));
