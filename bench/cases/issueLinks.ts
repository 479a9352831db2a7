import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { HostRequester } from "../../client/api/jira/hostData.js";
import { lookupIssues } from "../../client/api/jira/issues.js";
import { issueIdsOfRequirements } from "../../server/db/issueLinkStore.js";
import { createTenant, insertRequirementRow } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const PROJECT_ISSUES = 50_000;
const LINKED_ISSUES = 500;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

type FakeIssue = { id: string; key: string; fields: { summary: string; issuetype: { id: string; name: string } } };

/**
 * A Jira stand-in over HTTP holding a 50,000-issue project: `POST /rest/api/3/search/jql` with
 * `id in (...)` and nextPageToken paging, and `GET /rest/api/3/issue/{id}`, in Jira Cloud's shapes.
 */
function startBigJira(): Promise<{ url: string; close: () => Promise<void> }> {
  const issues = new Map<string, FakeIssue>();
  for (let n = 1; n <= PROJECT_ISSUES; n++) {
    const id = String(100000 + n);
    issues.set(id, { id, key: `BIG-${n}`, fields: { summary: `Issue number ${n}`, issuetype: { id: "10002", name: "Task" } } });
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      const single = /^\/rest\/api\/3\/issue\/(\d+)/.exec(req.url ?? "");
      if (req.method === "GET" && single?.[1]) {
        const issue = issues.get(single[1]);
        res.statusCode = issue ? 200 : 404;
        res.end(JSON.stringify(issue ?? { errorMessages: ["Issue does not exist or you do not have permission to see it."] }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { jql?: string; maxResults?: number; nextPageToken?: string };
      const ids = /id in \(([^)]*)\)/.exec(body.jql ?? "")?.[1]?.split(",") ?? [];
      const matches = ids.map((id) => issues.get(id.trim())).filter((issue): issue is FakeIssue => !!issue);
      const start = Number(body.nextPageToken ?? 0);
      const end = start + (body.maxResults ?? 50);
      res.end(
        JSON.stringify({
          issues: matches.slice(start, end),
          ...(end < matches.length ? { nextPageToken: String(end) } : { isLast: true }),
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** What AP.request does for the SPA: the host's REST API over HTTP. */
function httpHost(baseUrl: string): HostRequester & { requests: number } {
  const host = {
    requests: 0,
    async request<T>(options: { url: string; type?: string; data?: string; contentType?: string }): Promise<T> {
      host.requests++;
      const res = await fetch(`${baseUrl}${options.url}`, {
        method: options.type ?? "GET",
        headers: options.contentType ? { "content-type": options.contentType } : {},
        body: options.data,
      });
      if (!res.ok) throw new Error(`host answered ${res.status}`);
      return (await res.json()) as T;
    },
  };
  return host;
}

/** Gzipped bytes of the JavaScript an html entry loads up front: its chunk and every static import. */
function entryJsBytes(manifest: Record<string, { file: string; imports?: string[]; css?: string[] }>, entry: string, outDir: string): number {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entry);
  let bytes = 0;
  for (const key of seen) {
    const file = manifest[key]?.file;
    if (file?.endsWith(".js")) bytes += gzipSync(fs.readFileSync(path.join(outDir, file))).length;
  }
  return bytes;
}

async function bundleSizes(): Promise<BenchResult> {
  const { build } = await import("vite");
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-build-"));
  try {
    await build({
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true, manifest: "manifest.json" },
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8"));
    const panel = entryJsBytes(manifest, "panel.html", outDir);
    const main = entryJsBytes(manifest, "index.html", outDir);
    return { case: "issue-panel-bundle-gzip", db: "none", ours: panel, baseline: main, unit: "bytes", ratio: round(panel / main) };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Linked Issues of a requirement linked to 500 issues of a 50,000-issue project: our paged lookups
 * (50 ids a search, 10 in flight) against one request per issue, over HTTP; the link read against a
 * bare SELECT; and the issue panel's gzipped JavaScript against the main app's.
 */
const issueLinks: BenchCase = {
  name: "issue-links",
  async run(context) {
    const results: BenchResult[] = [];
    const { db, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const jira = await startBigJira();
    try {
      const tenant = await createTenant(db, "bench-links");
      const requirementId = await insertRequirementRow(db, tenant.tenantId, "Linked to 500 issues");
      const issueIds = Array.from({ length: LINKED_ISSUES }, (_, i) => String(100000 + 1 + i * 97));
      await db("requirement_issue_links").insert(
        issueIds.map((atlassian_issue_id) => ({ tenant_id: tenant.tenantId, requirement_id: requirementId, atlassian_issue_id })),
      );

      const ours = await medianMs(() => issueIdsOfRequirements(db, tenant.tenantId, [requirementId]), { iterations: 30 });
      const bare = await medianMs(
        () => db("requirement_issue_links").where({ tenant_id: tenant.tenantId, requirement_id: requirementId }).select("atlassian_issue_id"),
        { iterations: 30 },
      );
      results.push({ case: "linked-issue-ids-500", db: context.db, ours: round(ours), baseline: round(bare), unit: "ms", ratio: round(ours / bare) });

      const host = httpHost(jira.url);
      const paged = await medianMs(() => lookupIssues(host, issueIds), { iterations: 10, warmup: 2 });
      host.requests = 0;
      const found = await lookupIssues(host, issueIds);
      if (found.size !== LINKED_ISSUES) throw new Error(`the lookups found ${found.size} of ${LINKED_ISSUES} issues`);
      const pagedRequests = host.requests;
      const oneByOne = await medianMs(
        () => Promise.all(issueIds.map((id) => host.request({ url: `/rest/api/3/issue/${id}`, type: "GET" }))),
        { iterations: 10, warmup: 2 },
      );
      results.push(
        { case: "linked-issues-lookup-500-of-50k", db: "none", ours: round(paged), baseline: round(oneByOne), unit: "ms", ratio: round(paged / oneByOne) },
        { case: "linked-issues-lookup-requests", db: "none", ours: pagedRequests, baseline: LINKED_ISSUES, unit: "requests", ratio: round(pagedRequests / LINKED_ISSUES) },
      );
    } finally {
      await jira.close();
      await destroy();
    }

    // Bundle size does not depend on the database: measured once, on the first run.
    if (context.db === "pglite") {
      try {
        results.push(await bundleSizes());
      } catch (error) {
        process.stderr.write(`issue-panel bundle size not measured, the build failed: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
    }
    return results;
  },
};

export default issueLinks;
