import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { SENTRY_DSN_META } from "../common/errorReports.js";
import { FIRST_READ_META, FIRST_READS } from "../common/firstReads.js";
import type { ExchangeTokenBody } from "../common/schemas/auth.js";
import { type SpaEntry, spaEntryOf } from "../common/spaRoutes.js";
import type { Config } from "./config.js";

/** The folder holding package.json: one up from server/ when run from source, three up from dist/server/server/ when compiled. */
function findProjectRoot(from: string): string {
  const parent = path.dirname(from);
  if (existsSync(path.join(from, "package.json")) || parent === from) return from;
  return findProjectRoot(parent);
}

const projectRoot = findProjectRoot(fileURLToPath(new URL(".", import.meta.url)));

export type SpaOptions = {
  /** Built files (production); defaults to dist/client. Served under ASSET_BASE as vite.config.ts builds them. */
  distDir?: string;
  /** Overrides the choice made from config.env: Vite middleware in development and test, built files in production. */
  mode?: "vite" | "static";
  /** Signs a sign-in page's user in while the page is served (tokenForPage); without it every page exchanges its JWT itself. */
  signIn?: PageSignIn;
};

/** The token exchange's work (server/services/auth/exchangeToken.ts): the host's Connect JWT for a page, made rmCloud's app token. */
export type PageSignIn = (connectJwt: string, body: ExchangeTokenBody) => Promise<string>;

/** vite.config.ts `base`. */
export const ASSET_BASE = "/app";

const htmlFile = (entry: SpaEntry) => `${entry}.html`;

/** The Atlassian Cloud sites that may frame the pages (Jira and Confluence live on both domains). */
export const ATLASSIAN_HOST_SOURCES = ["https://*.atlassian.net", "https://*.jira.com"] as const;

/**
 * Who may frame the pages: the Atlassian sites, outside production the host that serves the
 * install keys (CONNECT_KEYS_CDN_URL), which is the local emulator playing Jira and Confluence,
 * and whatever FRAME_ANCESTORS names.
 */
export function frameAncestors(config: Pick<Config, "env" | "connectKeysCdnUrl" | "extraFrameAncestors">): string[] {
  const sources: string[] = [...ATLASSIAN_HOST_SOURCES];
  if (config.env !== "production" && config.connectKeysCdnUrl) sources.push(new URL(config.connectKeysCdnUrl).origin);
  return [...sources, ...config.extraFrameAncestors];
}

/**
 * Headers of a page that lives in a host iframe: a CSP whose frame-ancestors replaces
 * X-Frame-Options (which cannot name other origins), no MIME sniffing, and no Referer, since
 * the page URL carries the host's signed JWT. Scripts are not restricted by the CSP: the pages
 * load the host's all.js and Atlaskit's runtime styles. No Origin-Agent-Cluster: asked for by the
 * answer, the origin-keyed process can only be chosen once the answer is in, so Chromium dropped the
 * renderer it had started for the iframe with the request and started another, and the page began
 * to parse 300 ms after it had arrived (issue 39). The pages are their own site's only pages, so
 * site isolation already keeps them apart from every other site's.
 */
function pageHeaders(config: Config): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: helmet.contentSecurityPolicy.dangerouslyDisableDefaultSrc, frameAncestors: frameAncestors(config) },
    },
    xFrameOptions: false,
    crossOriginResourcePolicy: { policy: "cross-origin" },
    referrerPolicy: { policy: "no-referrer" },
    originAgentCluster: false,
  });
}

/**
 * Serves the React app: through Vite's middleware while developing (no build step, HMR), from the
 * built dist/client in production. Only the spec's routes answer html; anything else falls through.
 */
export async function mountSpa(app: Express, config: Config, options: SpaOptions = {}): Promise<void> {
  const mode = options.mode ?? (config.env === "production" || config.clientDistDir ? "static" : "vite");
  const headers = pageHeaders(config);
  app.use((req: Request, res: Response, next: NextFunction) => (spaEntryOf(req.path) ? headers(req, res, next) : next()));
  if (mode === "static")
    mountStatic(app, options.distDir ?? config.clientDistDir ?? path.join(projectRoot, "dist", "client"), config, options.signIn);
  else await mountVite(app, config, options.signIn);
}

/** The meta tag client/public/host-loader.js reads (a plain script: it cannot import this name). */
export const HOST_ORIGINS_META = "rmcloud-host-origins";

type ClientConfig = Pick<Config, "sentryClientDsn" | "env" | "connectKeysCdnUrl" | "extraFrameAncestors">;

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * What the page learns from the server, as meta tags at the top of its head (read by scripts that
 * run before the app: host-loader.js): the Sentry DSN when one is configured, and the hosts other
 * than Atlassian's sites whose bridge script the page may load, the same as may frame it (the
 * emulator outside production, FRAME_ANCESTORS). A production page names no such host, so it never
 * loads a script from http://localhost.
 */
export function withClientConfig(html: string, config: ClientConfig): string {
  const hostOrigins = frameAncestors(config).filter((source) => !(ATLASSIAN_HOST_SOURCES as readonly string[]).includes(source));
  const metas = [
    ...(config.sentryClientDsn ? [`<meta name="${SENTRY_DSN_META}" content="${attribute(config.sentryClientDsn)}" />`] : []),
    ...(hostOrigins.length > 0 ? [`<meta name="${HOST_ORIGINS_META}" content="${attribute(hostOrigins.join(" "))}" />`] : []),
  ];
  return withMetas(html, metas);
}

/**
 * The entry's first reads (common/firstReads.ts), for client/public/early-sign-in.js to start as soon
 * as the sign-in answers. The same for every page of the entry, so a built page is still made and
 * compressed once.
 */
export function withFirstReads(html: string, entry: SpaEntry): string {
  return withMetas(
    html,
    FIRST_READS[entry].map(
      ({ location, address }) =>
        `<meta name="${FIRST_READ_META}" data-location="${attribute(location)}" content="${attribute(address)}" />`,
    ),
  );
}

/** The meta tag client/public/early-sign-in.js reads (a plain script: it cannot import this name). */
export const SIGNED_IN_META = "rmcloud-signed-in";

/**
 * The app token for the user of a sign-in page (/authenticate/{location}), made while the page is
 * served (issue 39): the host signed the page's own address (the JWT's qsh covers this very GET), so
 * the exchange the page would ask for first is made now and its answer written into the page, which
 * starts its first reads a round trip sooner. An exchange refused here (an unlicensed site, an
 * expired JWT) leaves the page to ask for it itself, and to show why. The product is the page head's
 * guess from the location's name, so that the app takes this answer as the one it would have asked for.
 */
async function tokenForPage(req: Request, signIn: PageSignIn | undefined): Promise<string | undefined> {
  const location = /^\/authenticate\/([^/]+)\/?$/.exec(req.path)?.[1];
  const jwt = req.query.jwt;
  if (!signIn || !location || typeof jwt !== "string") return undefined;
  try {
    return await signIn(jwt, {
      fullPath: req.originalUrl,
      method: "GET",
      product: location.startsWith("confluence-") ? "confluence" : "jira",
    });
  } catch {
    return undefined;
  }
}

/** The page with its user's token in it. */
function withSignIn(html: string, token: string): string {
  return withMetas(html, [`<meta name="${SIGNED_IN_META}" content="${attribute(token)}" />`]);
}

/** Meta tags at the top of the head, ahead of the scripts that read them. */
function withMetas(html: string, metas: readonly string[]): string {
  if (metas.length === 0) return html;
  const tags = metas.join("\n    ");
  return /<head>/i.test(html) ? html.replace(/<head>/i, (head) => `${head}\n    ${tags}`) : `${tags}\n${html}`;
}

/** The encodings the build compresses to (vite.config.ts, precompress), best first, with each copy's file suffix. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
type Encoding = (typeof ENCODINGS)[number]["name"];

/**
 * `best` for a page made once and sent to everyone; `quick` for a page made for one request (a
 * signed-in page), where the best brotli would cost more time than the bytes it saves.
 */
type Effort = "best" | "quick";
/** Brotli's default is its best (11); at 5 a page of a few kilobytes takes well under a millisecond and is still smaller than gzip's. */
const QUICK_BROTLI_QUALITY = 5;
const compressors: Record<Encoding, (page: Buffer, effort: Effort) => Promise<Buffer>> = {
  br: (page, effort) =>
    promisify(brotliCompress)(page, {
      params: { [constants.BROTLI_PARAM_QUALITY]: effort === "best" ? constants.BROTLI_MAX_QUALITY : QUICK_BROTLI_QUALITY },
    }),
  gzip: (page, effort) =>
    promisify(gzip)(page, { level: effort === "best" ? constants.Z_BEST_COMPRESSION : constants.Z_DEFAULT_COMPRESSION }),
};

/** The first of `offered` (our order: the smallest first) that the request accepts, or undefined for the file as it is. */
function acceptedEncoding(req: Request, offered: readonly Encoding[]): Encoding | undefined {
  return offered.find((encoding) => req.acceptsEncodings(encoding) === encoding);
}

/**
 * Sends the build's compressed copy of an asset (`index-abc.js.br` for `index-abc.js`) to a browser
 * that accepts it, as the asset itself (its own Content-Type, Content-Encoding set); the static
 * handler after it sends the file. The copies are listed once: the build does not change under a
 * running server.
 */
function precompressedAssets(assetsDir: string): RequestHandler {
  const files = new Set(existsSync(assetsDir) ? readdirSync(assetsDir) : []);
  return (req, res, next) => {
    const name = req.path.slice(1);
    if ((req.method !== "GET" && req.method !== "HEAD") || name.includes("/") || !files.has(name)) return next();
    const offered = ENCODINGS.filter(({ suffix }) => files.has(name + suffix));
    if (offered.length === 0) return next();
    res.vary("Accept-Encoding");
    const encoding = acceptedEncoding(
      req,
      offered.map(({ name: offeredName }) => offeredName),
    );
    const copy = offered.find(({ name: offeredName }) => offeredName === encoding);
    if (!copy) return next();
    res.type(path.extname(name)).set("Content-Encoding", copy.name);
    req.url = `/${name}${copy.suffix}`;
    next();
  };
}

/** A page as the server sends it (its config written in) and its compressed forms, made once. */
type BuiltPage = { text: string; html: Buffer; encoded: Map<Encoding, Promise<Buffer>> };

/**
 * Production: the built files. Hashed assets (a new build, new names) are cached for a year and never
 * revalidated; the pages and the unhashed files in dist/client (favicon) are revalidated on every
 * use, so that a deployment takes effect at once (issue 39).
 */
function mountStatic(app: Express, distDir: string, config: Config, signIn: PageSignIn | undefined): void {
  const assetsDir = path.join(distDir, "assets");
  app.use(`${ASSET_BASE}/assets`, precompressedAssets(assetsDir));
  app.use(`${ASSET_BASE}/assets`, express.static(assetsDir, { immutable: true, maxAge: "1y", index: false }));
  app.use(
    ASSET_BASE,
    express.static(distDir, { index: false, cacheControl: false, setHeaders: (res) => res.set("Cache-Control", "no-cache") }),
  );
  const pages = new Map<SpaEntry, Promise<BuiltPage>>();
  const page = (entry: SpaEntry) => {
    let built = pages.get(entry);
    if (!built) {
      built = readFile(path.join(distDir, htmlFile(entry)), "utf8").then((file) => {
        const text = withClientConfig(withFirstReads(file, entry), config);
        return { text, html: Buffer.from(text), encoded: new Map() };
      });
      pages.set(entry, built);
    }
    return built;
  };
  app.get("*", async (req: Request, res: Response, next: NextFunction) => {
    const entry = spaEntryOf(req.path);
    if (!entry) return next();
    try {
      const [built, token] = await Promise.all([page(entry), tokenForPage(req, signIn)]);
      res.vary("Accept-Encoding").type("html");
      const encoding = acceptedEncoding(
        req,
        ENCODINGS.map(({ name }) => name),
      );
      if (token) {
        // This request's page alone: no cache may keep it, and it is compressed for it.
        res.set("Cache-Control", "no-store");
        const html = Buffer.from(withSignIn(built.text, token));
        if (!encoding) return res.send(html);
        return res.set("Content-Encoding", encoding).send(await compressors[encoding](html, "quick"));
      }
      res.set("Cache-Control", "no-cache");
      if (!encoding) return res.send(built.html);
      let encoded = built.encoded.get(encoding);
      if (!encoded) {
        encoded = compressors[encoding](built.html, "best");
        built.encoded.set(encoding, encoded);
      }
      res.set("Content-Encoding", encoding).send(await encoded);
    } catch (error) {
      pages.delete(entry);
      next(error);
    }
  });
}

async function mountVite(app: Express, config: Config, signIn: PageSignIn | undefined): Promise<void> {
  const { createServer } = await import("vite");
  const vite = await createServer({
    configFile: path.join(projectRoot, "vite.config.ts"),
    appType: "custom",
    // Tests load the app as it is: no file watching, no HMR or WebSocket server (ports stay free).
    server:
      config.env === "development"
        ? { middlewareMode: true, hmr: { port: hmrPort(config.port) } }
        : { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  app.use(vite.middlewares);
  app.get("*", async (req: Request, res: Response, next: NextFunction) => {
    const entry = spaEntryOf(req.path);
    if (!entry) return next();
    try {
      const template = await readFile(path.join(projectRoot, "client", htmlFile(entry)), "utf8");
      const [transformed, token] = await Promise.all([vite.transformIndexHtml(req.originalUrl, template), tokenForPage(req, signIn)]);
      const html = withClientConfig(withFirstReads(transformed, entry), config);
      if (token) res.set("Cache-Control", "no-store");
      res
        .status(200)
        .set("Content-Type", "text/html")
        .end(token ? withSignIn(html, token) : html);
    } catch (error) {
      vite.ssrFixStacktrace(error as Error);
      next(error);
    }
  });
}

/** Several add-ons may run side by side (one per developer); each gets its own HMR socket next to its port. */
function hmrPort(port: number): number | undefined {
  const derived = port + 21000;
  return port > 0 && derived <= 65535 ? derived : undefined;
}
