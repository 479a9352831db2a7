import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import express, { type Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { levelWindowAddress } from "../common/firstReads.js";
import { PANEL_LOCATION, SPA_ROUTES } from "../common/spaRoutes.js";
import { loadConfig } from "./config.js";
import { confluenceDescriptor, jiraDescriptor } from "./connect/modules.js";
import { frameAncestors, mountSpa, withClientConfig } from "./spa.js";

let distDir: string;
let app: Express;
const APP_SCRIPT = `console.log(${JSON.stringify("app ".repeat(200))})`;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), "rmcloud-spa-"));
  await mkdir(path.join(distDir, "assets"));
  await writeFile(path.join(distDir, "index.html"), "<!doctype html><title>main app</title>");
  await writeFile(path.join(distDir, "panel.html"), "<!doctype html><title>issue panel</title>");
  await writeFile(path.join(distDir, "assets", "index-abc.js"), APP_SCRIPT);
  // As the build leaves them (vite.config.ts, precompress): a brotli and a gzip copy beside each script.
  await writeFile(path.join(distDir, "assets", "index-abc.js.br"), brotliCompressSync(APP_SCRIPT));
  await writeFile(path.join(distDir, "assets", "index-abc.js.gz"), gzipSync(APP_SCRIPT));
  await writeFile(path.join(distDir, "assets", "index-abc.css"), "body { margin: 0 }");
  await writeFile(path.join(distDir, "host-loader.js"), "void 0");
  app = express();
  await mountSpa(app, loadConfig({ NODE_ENV: "production", APP_TOKEN_SECRET: "spa-test-secret-0123456789-abcdefghij" }), { distDir });
  app.use((_req, res) => {
    res.status(404).json({ Result: "Not found" });
  });
});

afterAll(async () => {
  await rm(distDir, { recursive: true, force: true });
});

describe("the built app served in production", () => {
  // The table is pinned by common/spaRoutes.test.ts and by the descriptor check below; here every
  // main-app route, bare and behind the sign-in hand-off, must reach the built index.html.
  const mainRoutes = SPA_ROUTES.filter((route) => route !== `/${PANEL_LOCATION}`);
  it.each([...mainRoutes, ...mainRoutes.map((route) => `/authenticate${route}`), "/authenticate/anything"])(
    "answers %s with the main app",
    async (route) => {
      const response = await request(app).get(`${route}?xdm_e=https%3A%2F%2Facme.atlassian.net&jwt=x.y.z`);
      expect(response.status).toBe(200);
      expect(response.type).toBe("text/html");
      expect(response.text).toContain("main app");
    },
  );

  it.each(["/issue-view-requirements-right-panel", "/authenticate/issue-view-requirements-right-panel"])(
    "answers %s with the light issue panel",
    async (route) => {
      const response = await request(app).get(`${route}?issueId=10100&projectId=10000`);
      expect(response.status).toBe(200);
      expect(response.text).toContain("issue panel");
    },
  );

  it("serves every page the Jira and Confluence descriptors open", async () => {
    const descriptorUrls = JSON.stringify([jiraDescriptor("https://x"), confluenceDescriptor("https://x")]).match(
      /"url":"\/authenticate\/[^"]+"/g,
    );
    expect(descriptorUrls?.length).toBeGreaterThan(8);
    for (const url of descriptorUrls ?? []) {
      const response = await request(app).get(url.slice('"url":"'.length, -1).split("?")[0] ?? "");
      expect(response.status, url).toBe(200);
      expect(response.type, url).toBe("text/html");
    }
  });

  it("serves the built assets and the host loader", async () => {
    const asset = await request(app).get("/app/assets/index-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
    expect((await request(app).get("/app/host-loader.js")).status).toBe(200);
  });

  it("sends a browser the build's brotli or gzip copy of a script, whichever it accepts, cached for a year", async () => {
    const brotli = await request(app).get("/app/assets/index-abc.js").set("Accept-Encoding", "gzip, deflate, br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.text).toBe(APP_SCRIPT);
    const gzipped = await request(app).get("/app/assets/index-abc.js").set("Accept-Encoding", "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.text).toBe(APP_SCRIPT);
    const plain = await request(app).get("/app/assets/index-abc.js").set("Accept-Encoding", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(APP_SCRIPT);
    for (const response of [brotli, gzipped, plain]) {
      expect(response.status).toBe(200);
      expect(response.type).toBe("application/javascript");
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.headers.vary).toBe("Accept-Encoding");
    }
    // A file the build left uncompressed goes as it is.
    const style = await request(app).get("/app/assets/index-abc.css").set("Accept-Encoding", "br");
    expect(style.headers["content-encoding"]).toBeUndefined();
    expect(style.text).toBe("body { margin: 0 }");
  });

  it("has the pages and the files without a hash revalidated on every use, and compresses the pages", async () => {
    const page = await request(app).get("/requirements").set("Accept-Encoding", "br");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.text).toContain("main app");
    const gzipped = await request(app).get("/authenticate/requirements").set("Accept-Encoding", "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.text).toContain("main app");
    expect((await request(app).get("/app/host-loader.js")).headers["cache-control"]).toBe("no-cache");
  });

  it("writes each page's first reads into it, the same for every page of the entry, compressed once with it", async () => {
    const treeRead =
      '<meta name="rmcloud-first-read" data-location="requirements" content="/api/item/primary?atlassian_project_id={projectId}&amp;offset=0&amp;limit=500" />';
    for (const encoding of ["br", "gzip", "identity"]) {
      const page = await request(app).get("/authenticate/requirements?projectId=10000&jwt=x.y.z").set("Accept-Encoding", encoding);
      expect(page.text, encoding).toContain(treeRead);
    }
    // The address the client's API module asks (client/api/items.ts), for the project the iframe URL names.
    expect(levelWindowAddress("{projectId}", null, 0)).toBe("/api/item/primary?atlassian_project_id={projectId}&offset=0&limit=500");
    expect(levelWindowAddress(10000, null, 0)).toBe("/api/item/primary?atlassian_project_id=10000&offset=0&limit=500");
    const panel = (await request(app).get(`/authenticate/${PANEL_LOCATION}?issueId=10100&projectId=10000`)).text;
    expect(panel.match(/<meta name="rmcloud-first-read"[^>]*>/g)).toEqual([
      `<meta name="rmcloud-first-read" data-location="${PANEL_LOCATION}" content="/api/user" />`,
      `<meta name="rmcloud-first-read" data-location="${PANEL_LOCATION}" content="/api/requirement?atlassian_project_id={projectId}&amp;atlassian_issue_id={issueId}" />`,
      `<meta name="rmcloud-first-read" data-location="${PANEL_LOCATION}" content="/api/requirement?atlassian_project_id=0&amp;atlassian_issue_id={issueId}" />`,
    ]);
    expect(panel).not.toContain(treeRead);
  });

  it.each([...SPA_ROUTES, ...SPA_ROUTES.map((route) => `/authenticate${route}`)])(
    "sends %s with the headers of a page framed by Jira and Confluence",
    async (route) => {
      const response = await request(app).get(route);
      expect(response.status).toBe(200);
      expect(response.headers["content-security-policy"]).toBe("frame-ancestors https://*.atlassian.net https://*.jira.com");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      // X-Frame-Options cannot name other origins; it would keep the page out of the host's iframe.
      expect(response.headers["x-frame-options"]).toBeUndefined();
      // Asked for by the answer, an origin-keyed process starts only once it is in: 300 ms before the iframe's page parses.
      expect(response.headers["origin-agent-cluster"]).toBeUndefined();
    },
  );

  it("leaves other paths to the rest of the app", async () => {
    expect((await request(app).get("/unknown-page")).status).toBe(404);
    expect((await request(app).post("/requirements")).status).toBe(404);
  });
});

describe("a sign-in page's user signed in while the page is served", () => {
  const asked: Array<{ jwt: string; fullPath: string; product: string }> = [];
  let signedIn: Express;
  beforeAll(async () => {
    signedIn = express();
    await mountSpa(signedIn, loadConfig({ NODE_ENV: "production", APP_TOKEN_SECRET: "spa-test-secret-0123456789-abcdefghij" }), {
      distDir,
      signIn: async (jwt, body) => {
        asked.push({ jwt, fullPath: body.fullPath, product: body.product });
        if (jwt === "refused.jwt") throw new Error("rmCloud is not installed on this site");
        return `token-for-${jwt}`;
      },
    });
  });

  it("writes the token into the page, exchanged for the page's own signed address, and lets no cache keep it", async () => {
    asked.length = 0;
    for (const encoding of ["br", "gzip", "identity"]) {
      const page = await request(signedIn).get("/authenticate/requirements?projectId=10000&jwt=a.b.c").set("Accept-Encoding", encoding);
      expect(page.status).toBe(200);
      expect(page.text, encoding).toContain('<meta name="rmcloud-signed-in" content="token-for-a.b.c" />');
      expect(page.text, encoding).toContain("main app");
      expect(page.headers["cache-control"], encoding).toBe("no-store");
    }
    const macro = await request(signedIn).get("/authenticate/confluence-insert-requirements-macro?contentId=65537&jwt=d.e.f");
    expect(macro.text).toContain("token-for-d.e.f");
    expect(asked).toEqual([
      ...Array(3).fill({ jwt: "a.b.c", fullPath: "/authenticate/requirements?projectId=10000&jwt=a.b.c", product: "jira" }),
      { jwt: "d.e.f", fullPath: "/authenticate/confluence-insert-requirements-macro?contentId=65537&jwt=d.e.f", product: "confluence" },
    ]);
  });

  it("leaves the page to exchange for itself, and to say why, when the sign-in is refused", async () => {
    const page = await request(signedIn).get("/authenticate/requirements?projectId=10000&jwt=refused.jwt");
    expect(page.status).toBe(200);
    expect(page.text).toContain("main app");
    expect(page.text).not.toContain("rmcloud-signed-in");
    expect(page.headers["cache-control"]).toBe("no-cache");
  });

  it("signs no one in on a page without the host's JWT, or outside the sign-in hand-off", async () => {
    asked.length = 0;
    for (const address of ["/authenticate/requirements?projectId=10000", "/requirements?projectId=10000&jwt=a.b.c"]) {
      const page = await request(signedIn).get(address);
      expect(page.text, address).not.toContain("rmcloud-signed-in");
    }
    expect(asked).toEqual([]);
  });
});

describe("what the page learns from the server", () => {
  const page = '<!doctype html><html><head><script src="/host-loader.js"></script></head><body></body></html>';
  const production = { env: "production" as const, connectKeysCdnUrl: undefined, extraFrameAncestors: [] };
  const development = {
    env: "development" as const,
    connectKeysCdnUrl: "http://localhost:2990/_emulator/connect-keys",
    extraFrameAncestors: [],
  };

  it("names the browser's error reporting DSN only when SENTRY_CLIENT_DSN is set", () => {
    expect(withClientConfig(page, { ...production, sentryClientDsn: undefined })).toBe(page);
    expect(withClientConfig(page, { ...production, sentryClientDsn: "https://public@o0.ingest.sentry.io/2" })).toContain(
      '<meta name="rmcloud-sentry-dsn" content="https://public@o0.ingest.sentry.io/2" />',
    );
  });

  it("names the emulator as a host to load the bridge from outside production, ahead of the script that reads it", () => {
    const html = withClientConfig(page, { ...development, sentryClientDsn: undefined });
    expect(html).toContain(
      '<head>\n    <meta name="rmcloud-host-origins" content="http://localhost:2990" /><script src="/host-loader.js">',
    );
    expect(withClientConfig(page, { ...production, extraFrameAncestors: ["http://localhost:*"], sentryClientDsn: undefined })).toContain(
      '<meta name="rmcloud-host-origins" content="http://localhost:*" />',
    );
  });
});

describe("who may frame the pages", () => {
  const emulatorKeys = "http://localhost:2990/_emulator/connect-keys";

  it("adds the local emulator outside production, taken from the install-key server it runs", () => {
    expect(frameAncestors({ env: "development", connectKeysCdnUrl: emulatorKeys, extraFrameAncestors: [] })).toEqual([
      "https://*.atlassian.net",
      "https://*.jira.com",
      "http://localhost:2990",
    ]);
  });

  it("names only the Atlassian sites in production", () => {
    expect(frameAncestors({ env: "production", connectKeysCdnUrl: emulatorKeys, extraFrameAncestors: [] })).toEqual([
      "https://*.atlassian.net",
      "https://*.jira.com",
    ]);
    expect(frameAncestors({ env: "development", connectKeysCdnUrl: undefined, extraFrameAncestors: [] })).toEqual([
      "https://*.atlassian.net",
      "https://*.jira.com",
    ]);
  });

  it("adds the origins FRAME_ANCESTORS names, in production too (a host the operator runs, such as the emulator in the bench)", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      APP_TOKEN_SECRET: "a-production-secret-of-at-least-32-characters",
      FRAME_ANCESTORS: "http://localhost:*, https://staging.example",
    });
    expect(frameAncestors(config)).toEqual([
      "https://*.atlassian.net",
      "https://*.jira.com",
      "http://localhost:*",
      "https://staging.example",
    ]);
  });
});
