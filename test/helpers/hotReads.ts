import type { Express } from "express";
import request from "supertest";
import type { Db } from "../../server/db/knex.js";
import { asJson } from "../../server/db/queryHelpers.js";
import { PROBE } from "./realisticTenant.js";

/** A read the screens make on every selection, page or panel load, against a tenant seeded by realisticTenant.ts. */
export type HotRead = { name: string; method: "get" | "post"; path: string; body?: object };

const project = `atlassian_project_id=${PROBE.projectId}`;

export const HOT_READS: HotRead[] = [
  { name: "requirement detail", method: "get", path: `/api/requirement/${PROBE.requirementId}` },
  { name: "revisions", method: "get", path: `/api/requirement/${PROBE.requirementId}/revision` },
  {
    name: "item/primary with expands",
    method: "get",
    path: `/api/item/primary?${project}&expand=${PROBE.folderId}&expand=${PROBE.subfolderId}`,
  },
  { name: "items of a folder", method: "get", path: `/api/item/${PROBE.folderId}/descendant?${project}` },
  { name: "folders of a project", method: "get", path: `/api/folder/primary?${project}` },
  { name: "requirements of an issue", method: "get", path: `/api/requirement?${project}&atlassian_issue_id=${PROBE.issueId}` },
  { name: "requirements of a page", method: "get", path: `/api/requirement/lite?atlassian_content_id=${PROBE.contentId}` },
  { name: "lite list of a project", method: "get", path: `/api/requirement/lite?${project}` },
  { name: "requirements with suspect links", method: "get", path: `/api/requirement?${project}&suspect=true` },
  { name: "matrix window", method: "get", path: `/api/requirement/matrix?${project}&limit=200` },
  { name: "lite list by ids", method: "post", path: "/api/requirement/by-id/lite", body: { requirementIds: PROBE.requirementIds } },
  { name: "display_ids", method: "post", path: "/api/requirement/display_ids", body: { requirementIds: PROBE.requirementIds } },
  { name: "requirement types", method: "get", path: "/api/requirement/type" },
  { name: "custom fields of a project", method: "get", path: `/api/attribute?${project}` },
  // Searches that type something are not here: their words' and IDs' postings are shared by a site's projects (docs/decisions.md).
  { name: "picker first page", method: "get", path: `/api/requirement/search?${project}&atlassian_project_id=0` },
];

/** `name`: a statement PostgreSQL runs on its generic plan (db/requirements/detail.ts's runOnGenericPlan). */
type CapturedQuery = { sql: string; bindings: readonly unknown[]; name?: string };
type GenericPlanOf = { name: string; sql: string; bindings: readonly unknown[] };

/** The SQL a piece of code sends through `db` (knex's own `query` event), in order. */
export async function captureQueries(db: Db, run: () => Promise<unknown>): Promise<CapturedQuery[]> {
  const queries: CapturedQuery[] = [];
  const listener = (query: { sql: string; bindings?: readonly unknown[]; options?: { genericPlanOf?: GenericPlanOf } }) => {
    const generic = query.options?.genericPlanOf;
    queries.push(generic ? { ...generic } : { sql: query.sql, bindings: query.bindings ?? [] });
  };
  db.on("query", listener);
  try {
    await run();
  } finally {
    db.off("query", listener);
  }
  return queries;
}

type PlanNode = { "Shared Hit Blocks"?: number; "Shared Read Blocks"?: number };

/** Shared buffers (hit + read) a read-only statement touches when run, from EXPLAIN (ANALYZE, BUFFERS); a node's count includes its children. */
export async function explainBuffers(db: Db, query: CapturedQuery): Promise<number> {
  const result = query.name
    ? await explainGenericPlan(db, query)
    : // knex hands the statement over with $n placeholders in order; raw() wants `?`.
      await db.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.sql.replace(/\$\d+/g, "?")}`, query.bindings as never[]);
  const row = (result.rows ?? result)[0] as Record<string, unknown>;
  const [explained] = asJson<{ Plan: PlanNode }[]>(row["QUERY PLAN"], []);
  const plan = explained?.Plan ?? {};
  return (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0);
}

/** A named statement's plan as production runs it: prepared, planned generically, then executed with the values. */
async function explainGenericPlan(db: Db, query: CapturedQuery): Promise<{ rows: unknown[] }> {
  return db.transaction(async (trx) => {
    await trx.raw("SET LOCAL plan_cache_mode = force_generic_plan");
    await trx.raw(`PREPARE explained AS ${query.sql}`);
    const values = query.bindings.map((value) => trx.raw("?", [value as never]).toQuery());
    const result = await trx.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE explained(${values.join(", ")})`);
    await trx.raw("DEALLOCATE explained");
    return result;
  });
}

export type ReadCost = { status: number; buffers: number; queries: { sql: string; buffers: number }[] };

const isRead = (sql: string) => /^\s*(select|with)\b/i.test(sql);

/** Sends the read (twice: the first warms the app's caches), then explains every SELECT the second one ran. */
export async function costOfRead(app: Express, db: Db, auth: string, read: HotRead): Promise<ReadCost> {
  const send = () => {
    const call = request(app)[read.method](read.path).set("Authorization", auth);
    return read.body ? call.send(read.body) : call;
  };
  await send();
  let status = 0;
  const captured = await captureQueries(db, async () => {
    status = (await send()).status;
  });
  const queries = [];
  for (const query of captured.filter((q) => isRead(q.sql))) queries.push({ sql: query.sql, buffers: await explainBuffers(db, query) });
  return { status, buffers: queries.reduce((sum, q) => sum + q.buffers, 0), queries };
}
