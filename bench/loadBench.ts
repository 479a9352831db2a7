import os from "node:os";
import { performance } from "node:perf_hooks";
import { stringify } from "csv-stringify/sync";
import { seedContentUsers } from "../emulator/seed/users.js";
import { createDb, type Db } from "../server/db/knex.js";
import { seedLargeProject } from "../server/scripts/seedLarge.js";
import { type FinalRequirement, findLostUpdates, requirementKey } from "./lostUpdates.js";
import type { z } from "zod";
import { REVISION_PAGE_MAX, type RevisionsResponseSchema } from "../common/schemas/requirement.js";
import { round } from "./measure.js";
import { errorsOf, type KindResult, type LoadKind, type PlannedRequest, runMixedLoad } from "./mixedLoad.js";
import { writeResults } from "./performanceDoc.js";
import { type EmulatedSiteInfo, ProductionStack } from "./productionStack.js";
import type { BenchResult } from "./types.js";

/**
 * `npm run bench:load` (issue 40, Load): the product as production runs it (ProductionStack), five
 * sites seeded (100,000 requirements, four of 20,000), then LOAD_MINUTES (default 3) of mixed load
 * from a separate process, a CSV import and a Word export running meanwhile, the lost-update check,
 * and the rate-limit scenario. Prints the figures next to a bare endpoint's in the same run (served
 * by the same two API processes under the same load, so both sides get the same share), keeps
 * them in bench/results.json and rewrites docs/performance.md. Exits 1 when an error other than
 * 409 was answered, an accepted edit was lost, or the import or export did not finish.
 */
const minutes = Number(process.env.LOAD_MINUTES ?? 3);
if (!(minutes > 0 && minutes <= 60)) throw new Error("LOAD_MINUTES must be a number of minutes above 0 and at most 60");
const durationSeconds = Math.round(minutes * 60);
const PROJECT = 10000;
const SITES = [
  { requirements: 100_000, folders: 500, bigFolderRequirements: 5000 },
  ...Array.from({ length: 4 }, () => ({ requirements: 20_000, folders: 100, bigFolderRequirements: 1000 })),
];
const IMPORT_ROWS = 2000;
/** Requirements per site that both API processes edit at once: few, so saves meet stale revisions. */
const HOT_REQUIREMENTS = 3;
const CONNECTIONS = { tree: 4, detail: 8, edit: 6, matrix: 2, baseline: 1 };
/** The rate-limit scenario: the limit a site gets, how long each phase lasts, and the quiet site's pace. */
const RATE_LIMIT = { sitePerMinute: 600, seconds: 20, quietPerSecond: 4, floodConnections: 16 };
const [EDITOR_A, EDITOR_B] = [seedContentUsers[0]?.accountId ?? "", seedContentUsers[1]?.accountId ?? ""];

type Site = {
  info: EmulatedSiteInfo;
  tenantId: string;
  headers: Record<string, string>[];
  requirementIds: number[];
  folderIds: number[];
  typeId: number;
};

const log = (line: string) => process.stdout.write(`${line}\n`);
const machine = () => `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores shared with other work`;

async function api<T>(url: string, headers: Record<string, string>, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Seeds every site side by side (each its own connection), as set-based SQL: seed:large's shape plus requirement links. */
async function seedSites(db: Db, tenantIds: string[]): Promise<void> {
  await Promise.all(
    tenantIds.map((tenantId, index) =>
      seedLargeProject(db, tenantId, {
        projectId: PROJECT,
        ...SITES[index],
        linksPerRequirement: 5,
        requirementLinksPerRequirement: 2,
        firstRevisions: true,
      }),
    ),
  );
}

async function tenantOf(db: Db, info: EmulatedSiteInfo): Promise<string> {
  const installation = await db("installations").where({ client_key: info.jira.clientKey }).first("tenant_id");
  if (!installation) throw new Error(`site ${info.name} is not installed`);
  return String(installation.tenant_id);
}

async function siteOf(db: Db, stack: ProductionStack, info: EmulatedSiteInfo, tenantId: string): Promise<Site> {
  const headers = await Promise.all(
    [EDITOR_A, EDITOR_B].map(async (account) => ({ authorization: `Bearer ${await stack.signIn(info, account)}` })),
  );
  const sample = (table: string, column: string) =>
    db(table)
      .where({ tenant_id: tenantId, project_id: PROJECT })
      .orderByRaw("random()")
      .limit(500)
      .pluck(column)
      .then((ids) => ids.map(Number));
  const [type] = await db("requirement_types").where({ tenant_id: tenantId }).orderBy("requirement_type_id").pluck("requirement_type_id");
  return {
    info,
    tenantId,
    headers,
    requirementIds: await sample("requirements", "requirement_id"),
    folderIds: await sample("folders", "folder_id"),
    typeId: Number(type),
  };
}

const pick = <T>(items: T[], n: number): T => items[n % items.length] as T;

/** Requests of one kind over every site, interleaved as many sites' users would send them. */
function requestsOf(sites: Site[], count: number, request: (site: Site, n: number) => Omit<PlannedRequest, "headers">): PlannedRequest[] {
  return Array.from({ length: count }, (_, n) => {
    const site = pick(sites, n);
    return { ...request(site, Math.floor(n / sites.length)), headers: pick(site.headers, n) };
  });
}

function mixedKinds(sites: Site[], apiUrls: string[], bareUrls: string[]): LoadKind[] {
  const base = { urls: apiUrls, durationSeconds };
  return [
    {
      kind: "tree",
      ...base,
      connections: CONNECTIONS.tree,
      requests: requestsOf(sites, 2000, (site, n) =>
        n % 4 === 0
          ? { method: "GET", path: `/api/item/primary?atlassian_project_id=${PROJECT}&limit=200` }
          : { method: "GET", path: `/api/item/${pick(site.folderIds, n)}/descendant?atlassian_project_id=${PROJECT}&limit=200` },
      ),
    },
    {
      kind: "detail",
      ...base,
      connections: CONNECTIONS.detail,
      requests: requestsOf(sites, 2500, (site, n) => ({ method: "GET", path: `/api/requirement/${pick(site.requirementIds, n * 7)}` })),
    },
    {
      kind: "edit",
      ...base,
      connections: CONNECTIONS.edit,
      edits: sites.flatMap((site) =>
        site.requirementIds
          .slice(0, HOT_REQUIREMENTS)
          .flatMap((requirementId) => site.headers.map((headers) => ({ site: site.info.name, requirementId, headers }))),
      ),
    },
    {
      kind: "matrix",
      ...base,
      connections: CONNECTIONS.matrix,
      requests: requestsOf(sites, 500, (_site, n) => ({
        method: "GET",
        path: `/api/requirement/matrix?atlassian_project_id=${PROJECT}&offset=${(n * 100) % 5000}&limit=100`,
      })),
    },
    {
      kind: "baseline",
      ...base,
      connections: CONNECTIONS.baseline,
      requests: requestsOf(sites, 500, (site, n) => ({
        method: "POST",
        path: "/api/baseline",
        body: {
          name: `Under load ${n}`,
          project: PROJECT,
          select_from_parent_folder: true,
          select_from_parent_folder_id: pick(site.folderIds, n + 1),
        },
      })),
    },
    // The same reads' one SELECT, served by the same two processes beside our API (bench/apiProcess.ts).
    {
      kind: "bare",
      urls: bareUrls,
      durationSeconds,
      connections: CONNECTIONS.detail,
      requests: requestsOf(sites, 2500, (site, n) => ({
        method: "GET",
        path: `/bare/${site.tenantId}/${pick(site.requirementIds, n * 7)}`,
      })),
    },
  ];
}

type JobOutcome = { status: string; seconds: number; error: string | null; result: unknown };

/** Polls a job as the dialogs do (every 2 s) until it finished or failed; answers how long it took from `started`. */
async function jobOutcome(url: string, headers: Record<string, string>, jobId: string, started: number): Promise<JobOutcome> {
  const deadline = Date.now() + (durationSeconds + 900) * 1000;
  for (;;) {
    const status = await api<{ status: string; error: string | null; result: unknown }>(url, headers, "GET", `/api/job/status/${jobId}`);
    if (status.status === "finished" || status.status === "failed" || Date.now() > deadline) {
      return { status: status.status, seconds: round((performance.now() - started) / 1000, 1), error: status.error, result: status.result };
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** The CSV import dialog's steps: sign an upload, PUT the file to storage, start the import, poll it. */
async function importCsv(url: string, site: Site): Promise<JobOutcome> {
  const started = performance.now();
  const headers = site.headers[0] ?? {};
  const signed = await api<{ presigned_url: string; uuid_file_name: string }>(url, headers, "POST", "/api/sign-s3-put", {
    operation: "import",
    original_file_name: "under-load.csv",
    file_type: "text/csv",
  });
  const file = stringify([
    ["Name", "Description"],
    ...Array.from({ length: IMPORT_ROWS }, (_, n) => [`Imported under load ${n}`, `Row ${n}, imported while the load ran`]),
  ]);
  const upload = await fetch(signed.presigned_url, { method: "PUT", headers: { "content-type": "text/csv" }, body: file });
  if (upload.status !== 200 && upload.status !== 204) throw new Error(`the import file's upload answered ${upload.status}`);
  const { job_id } = await api<{ job_id: string }>(url, headers, "POST", "/api/import-issues", {
    file_name: signed.uuid_file_name,
    requirement_type: site.typeId,
    location: null,
    atlassian_project_id: PROJECT,
    atlassian_component_json: "[]",
    atlassian_statuses_json: "[]",
  });
  return jobOutcome(url, headers, job_id, started);
}

/** The matrix's Word export as its dialog starts it, polled; then the file is downloaded from where it says. */
async function exportWord(url: string, site: Site): Promise<JobOutcome & { bytes: number }> {
  const started = performance.now();
  const headers = site.headers[0] ?? {};
  const { job_id, presigned_url } = await api<{ job_id: string; presigned_url: string }>(
    url,
    headers,
    "POST",
    "/api/requirement/matrix/export",
    {
      atlassian_project_id: PROJECT,
      type: "docx",
      selected_issue_types: [],
    },
  );
  const outcome = await jobOutcome(url, headers, job_id, started);
  const file = outcome.status === "finished" ? await fetch(presigned_url) : undefined;
  return { ...outcome, bytes: file?.ok ? (await file.arrayBuffer()).byteLength : 0 };
}

/** Every edited requirement read back through the API: its state and the revisions of its Activity list. */
async function finalStates(
  url: string,
  sites: Site[],
  edited: { site: string; requirementId: number }[],
): Promise<Map<string, FinalRequirement>> {
  const finals = new Map<string, FinalRequirement>();
  for (const { site: name, requirementId } of edited) {
    const headers = sites.find((site) => site.info.name === name)?.headers[0] ?? {};
    const detail = await api<{ revision: number; description: string | null }>(url, headers, "GET", `/api/requirement/${requirementId}`);
    const updateRevisions: number[] = [];
    // The Activity list is paged: a hot requirement of a long run has thousands of revisions.
    for (let offset = 0, more = true; more; offset += REVISION_PAGE_MAX) {
      const page = await api<z.infer<typeof RevisionsResponseSchema>>(
        url,
        headers,
        "GET",
        `/api/requirement/${requirementId}/revision?offset=${offset}&limit=${REVISION_PAGE_MAX}`,
      );
      updateRevisions.push(...page.revisions.filter((revision) => revision.action === "updated").map((revision) => revision.revision));
      more = page.has_more;
    }
    finals.set(requirementKey(name, requirementId), { revision: detail.revision, description: detail.description, updateRevisions });
  }
  return finals;
}

/** One site floods (both API processes, no pause) while another keeps a user's pace; the quiet site's latency alone first. */
async function rateLimitScenario(stack: ProductionStack, db: Db, flooding: Site, quiet: Site) {
  await stack.stopApis();
  await stack.startApis({ RATE_LIMIT_SITE_PER_MINUTE: String(RATE_LIMIT.sitePerMinute) });
  // The mixed load's counts of the last minute are in the shared table: the scenario starts from none.
  await db("api_rate_limits").delete();
  const detailReads = (site: Site) =>
    requestsOf([site], 500, (s, n) => ({ method: "GET", path: `/api/requirement/${pick(s.requirementIds, n)}` }));
  const quietKind = (kind: string): LoadKind => ({
    kind,
    urls: stack.apiUrls,
    connections: 2,
    durationSeconds: RATE_LIMIT.seconds,
    overallRate: RATE_LIMIT.quietPerSecond,
    requests: detailReads(quiet),
  });
  const alone = await runMixedLoad([quietKind("quiet site alone")]);
  const during = await runMixedLoad([
    quietKind("quiet site during the flood"),
    {
      kind: "flooding site",
      urls: stack.apiUrls,
      connections: RATE_LIMIT.floodConnections,
      durationSeconds: RATE_LIMIT.seconds,
      requests: detailReads(flooding),
    },
  ]);
  return [...alone.kinds, ...during.kinds];
}

const byKind = (kinds: KindResult[], kind: string) => {
  const found = kinds.find((result) => result.kind === kind);
  if (!found) throw new Error(`no figures for ${kind}`);
  return found;
};

async function main(stack: ProductionStack): Promise<void> {
  const step = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    log(`${what}: ${round((performance.now() - started) / 1000, 1)} s`);
    return result;
  };
  log(`bench:load, ${minutes} min of mixed load; ${machine()}`);
  await step("created database", () => stack.createDatabase());
  if (process.env.LOAD_BUILD === "false") log("LOAD_BUILD=false: running the dist/ an earlier npm run build left");
  else await step("npm run build", () => stack.build());
  await step("started emulator, 2 API processes, 1 worker", () => stack.start());
  const infos = await step("installed 5 sites through the signed lifecycle", () =>
    stack.installSites(["load-2", "load-3", "load-4", "load-5"]),
  );
  const db = createDb({ kind: "postgres", connectionString: stack.databaseUrl, poolSize: SITES.length + 1 });
  try {
    const tenantIds = await Promise.all(infos.map((info) => tenantOf(db, info)));
    await step("seeded 180,000 requirements with folders, issue links and requirement links", () => seedSites(db, tenantIds));
    const sites = await Promise.all(infos.map((info, index) => siteOf(db, stack, info, tenantIds[index] as string)));
    const [apiOne, apiTwo] = stack.apiUrls as [string, string];
    await step("made two baselines of every site through the API", async () => {
      for (const [index, site] of sites.entries()) {
        for (const n of [1, 2]) {
          await api(n === 1 ? apiOne : apiTwo, site.headers[0] ?? {}, "POST", "/api/baseline", {
            name: `Seeded ${n}`,
            project: PROJECT,
            select_all_requirements: true,
          });
        }
        log(`  site ${index + 1}: ${SITES[index]?.requirements} requirements`);
      }
    });
    log(
      `mixed load for ${durationSeconds} s from a separate process; a ${IMPORT_ROWS}-row CSV import and a Word export of 20,000 rows meanwhile...`,
    );
    const importing = importCsv(apiTwo, sites[1] as Site);
    const exporting = exportWord(apiOne, sites[2] as Site);
    const load = await runMixedLoad(mixedKinds(sites, stack.apiUrls, stack.bareUrls));
    const [imported, exported] = await step("import and export finished", () => Promise.all([importing, exporting]));
    const importedRows = Number(
      (
        await db("requirements")
          .where({ tenant_id: sites[1]?.tenantId })
          .whereLike("name", "Imported under load %")
          .count({ n: "*" })
          .first()
      )?.n,
    );

    const edited = [...new Map(load.accepted.map((edit) => [requirementKey(edit.site, edit.requirementId), edit])).values()];
    const lost = findLostUpdates(load.accepted, load.unanswered, await finalStates(apiOne, sites, edited));
    const rateLimited = await step("rate-limit scenario", () => rateLimitScenario(stack, db, sites[3] as Site, sites[4] as Site));
    report(
      load.kinds,
      { accepted: load.accepted.length, unanswered: load.unanswered.length, lost: lost.length },
      imported,
      exported,
      importedRows,
      rateLimited,
    );
    for (const update of lost.slice(0, 10)) log(`  lost: ${JSON.stringify(update)}`);
  } finally {
    await db.destroy();
  }
}

function report(
  kinds: KindResult[],
  edits: { accepted: number; unanswered: number; lost: number },
  imported: JobOutcome,
  exported: JobOutcome & { bytes: number },
  importedRows: number,
  rateLimited: KindResult[],
): void {
  const bare = byKind(kinds, "bare");
  const product = kinds.filter((kind) => kind.kind !== "bare");
  const edit = byKind(kinds, "edit");
  const conflicts = edit.statuses["409"] ?? 0;
  const errors = product.reduce((sum, kind) => sum + errorsOf(kind, kind.kind === "edit" ? [409] : []), 0);
  const requests = product.reduce((sum, kind) => sum + kind.requests, 0);
  const throughput = product.reduce((sum, kind) => sum + kind.requestsPerSecond, 0);
  const [alone, during, flood] = ["quiet site alone", "quiet site during the flood", "flooding site"].map((kind) =>
    byKind(rateLimited, kind),
  ) as [KindResult, KindResult, KindResult];
  const refused = flood.statuses["429"] ?? 0;
  const detail = byKind(kinds, "detail");

  console.table(
    [...kinds, ...rateLimited].map((kind) => ({
      kind: kind.kind,
      requests: kind.requests,
      "req/s": round(kind.requestsPerSecond, 1),
      "p50 ms": kind.p50Ms,
      "p99 ms": kind.p99Ms,
      "p50 ÷ bare": round(kind.p50Ms / bare.p50Ms, 2),
      "p99 ÷ bare": round(kind.p99Ms / bare.p99Ms, 2),
      statuses: JSON.stringify(kind.statuses),
      failures: kind.failures,
    })),
  );
  const checks: [string, boolean][] = [
    [`errors other than 409: ${errors} of ${requests} requests`, errors === 0],
    [
      `conflicts (409, expected): ${conflicts}; accepted edits: ${edits.accepted} (${edits.unanswered} in flight when the load stopped); lost updates: ${edits.lost}`,
      edits.lost === 0 && edits.accepted > 0,
    ],
    [
      `CSV import: ${imported.status} after ${imported.seconds} s, ${importedRows} of ${IMPORT_ROWS} rows${imported.error ? ` (${imported.error})` : ""}`,
      imported.status === "finished" && importedRows === IMPORT_ROWS,
    ],
    [
      `Word export: ${exported.status} after ${exported.seconds} s, ${exported.bytes} bytes${exported.error ? ` (${exported.error})` : ""}`,
      exported.status === "finished" && exported.bytes > 0,
    ],
    [
      `detail p99 ${detail.p99Ms} ms ≤ 3 × bare p99 ${bare.p99Ms} ms, in the same processes: ratio ${round(detail.p99Ms / bare.p99Ms, 2)} (timing: reported, not failed)`,
      detail.p99Ms <= 3 * bare.p99Ms,
    ],
    [
      `flood: ${refused} of ${flood.requests} answered 429, ${flood.refusedWithoutRetryAfter} without Retry-After; quiet site: ${errorsOf(during)} errors, p99 ${during.p99Ms} ms during vs ${alone.p99Ms} ms alone`,
      refused > 0 && flood.refusedWithoutRetryAfter === 0 && errorsOf(during) === 0 && errorsOf(alone) === 0,
    ],
  ];
  log(
    `throughput: ${round(throughput, 1)} req/s over every kind, the bare endpoint ${round(bare.requestsPerSecond, 1)} req/s (ratio ${round(throughput / bare.requestsPerSecond, 2)})`,
  );
  for (const [line, ok] of checks) log(`${ok ? "PASS" : "FAIL"}  ${line}`);
  if (checks.some(([line, ok]) => !ok && !line.includes("timing"))) process.exitCode = 1;

  const note = `${minutes} min, 5 sites (100k + 4×20k), 2 API + 1 worker processes, the bare endpoint in the API processes; ${machine()}`;
  const row = (name: string, ours: number, baseline: number, unit: string): BenchResult => ({
    case: name,
    db: "postgres",
    ours: round(ours, 1),
    baseline: round(baseline, 1),
    unit,
    ratio: round(baseline === 0 ? 0 : ours / baseline),
    note,
  });
  const results: BenchResult[] = [
    row("load-throughput", throughput, bare.requestsPerSecond, "req/s"),
    ...product.flatMap((kind) => [
      row(`load-${kind.kind}-p50`, kind.p50Ms, bare.p50Ms, "ms"),
      row(`load-${kind.kind}-p99`, kind.p99Ms, bare.p99Ms, "ms"),
    ]),
    row("load-errors", errors, requests, "requests"),
    row("load-conflicts", conflicts, conflicts + edits.accepted, "saves"),
    row("load-lost-updates", edits.lost, edits.accepted, "accepted edits"),
    {
      ...row("load-import-csv", imported.seconds, durationSeconds, "s"),
      note: `${IMPORT_ROWS} rows, ${imported.status}; baseline: the load's length; ${note}`,
    },
    {
      ...row("load-export-word", exported.seconds, durationSeconds, "s"),
      note: `20,000 rows, ${exported.status}; baseline: the load's length; ${note}`,
    },
    {
      ...row("load-rate-limit-refused", refused, flood.requests, "requests"),
      note: `429 share of one site's flood, ${flood.refusedWithoutRetryAfter} without Retry-After; ${note}`,
    },
    { ...row("load-rate-limit-other-site-p50", during.p50Ms, alone.p50Ms, "ms"), note: `another site during the flood vs alone; ${note}` },
    { ...row("load-rate-limit-other-site-p99", during.p99Ms, alone.p99Ms, "ms"), note: `another site during the flood vs alone; ${note}` },
  ];
  writeResults(results);
}

const stack = new ProductionStack(process.env.LOAD_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`\n${signal}: stopping the processes and dropping the database...`);
    void stack.stop().finally(() => process.exit(130));
  });
}
try {
  await main(stack);
} catch (error) {
  // Once interrupted, what failed failed because the stop took its processes and database away.
  if (!interrupted) process.stderr.write(`bench:load failed: ${(error as Error).stack}\n`);
  process.exitCode = 1;
} finally {
  await stack.stop();
}
process.exit();
