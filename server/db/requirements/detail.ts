/** One requirement with everything hanging off it, as the detail panel and revisions need it. */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import type { Db } from "../knex.js";
import { asJson } from "../queryHelpers.js";
import { REQUIREMENT_COLUMNS, REQUIREMENT_TYPE_COLUMNS, type RequirementRow, selectRequirements, toRow } from "./rows.js";
import { SUSPECT_LINKS_JSON, type SuspectLinkRow, toSuspectLinkRow } from "../suspectLinkStore.js";

/** A linked requirement as the detail lists it. */
export type LinkedRequirementRow = Pick<
  RequirementRow,
  "requirement_id" | "project_id" | "requirement_type_id" | "prefix" | "level" | "display_id" | "name"
>;

/** A requirement with everything hanging off it. */
export type RequirementDetailRow = RequirementRow & {
  components: string[];
  issues: string[];
  contents: string[];
  attributes: Record<string, string>;
  attachments: { original_file_name: string; uuid_file_name: string }[];
  /** Active requirements linked either way, by id. */
  linked: LinkedRequirementRow[];
  suspect_links: SuspectLinkRow[];
};

const toLinkedRow = (row: Record<string, unknown>): LinkedRequirementRow => ({
  requirement_id: Number(row.requirement_id),
  project_id: Number(row.project_id),
  requirement_type_id: Number(row.requirement_type_id),
  prefix: String(row.prefix),
  level: Number(row.level),
  display_id: row.display_id === null || row.display_id === undefined ? null : String(row.display_id),
  name: String(row.name),
});

const ids = (table: string) => `FROM ${table} x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id`;
// Links are stored once per pair, so both directions are read, each through its own index; each
// linked requirement is then one primary-key probe of its own (a scalar subquery the planner
// cannot turn around into a scan of the tenant's requirements probing the links per row).
const LINKED = `(SELECT json_agg(k.linked ORDER BY k.other) FROM (
    SELECT l.other, (SELECT json_build_object(
        'requirement_id', o.requirement_id, 'project_id', o.project_id, 'requirement_type_id', o.requirement_type_id,
        'prefix', ot.prefix, 'level', ot.level, 'display_id', o.display_id, 'name', o.name)
      FROM requirements o JOIN t ot ON ot.tenant_id = o.tenant_id AND ot.requirement_type_id = o.requirement_type_id
      WHERE o.tenant_id = r.tenant_id AND o.requirement_id = l.other AND o.deleted_at IS NULL) AS linked
    FROM (SELECT x.linked_requirement_id AS other FROM requirement_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id
          UNION ALL
          SELECT x.requirement_id FROM requirement_links x WHERE x.tenant_id = r.tenant_id AND x.linked_requirement_id = r.requirement_id) l
  ) k WHERE k.linked IS NOT NULL) AS linked`;

/** Stand-ins the statement is built with once; each call puts its own values in their places. */
const TENANT = "\u0000tenant";
const IDS = "\u0000ids";
const ID = "\u0000id";
const TENANTS = "\u0000tenants";

/**
 * Which requirements a detail statement reads: one by its id, several of one site, or several of
 * several sites (the shared batch, each id with its site).
 */
type Scope = "one" | "many" | "sites";

/** `sql` with knex's placeholders, `nativeSql` with PostgreSQL's own ($1...), for PREPARE. */
type Statement = { sql: string; nativeSql: string; bindings: readonly unknown[]; name: string };
const statements = new Map<string, Statement>();

/**
 * Requirements of several sites, each row with its site, its type from the `t` of those sites'
 * types; the rest of the detail statement correlates on the row's own tenant_id. The reads are
 * fenced (OFFSET 0) so that each is one probe of the primary key before its type is joined: joined
 * freely, the planner paired every read with every type of its site first and probed once per pair.
 */
function ofSites(db: Db, includeDeleted: boolean): Knex.QueryBuilder {
  const reads = db.raw(
    "(SELECT * FROM requirements WHERE (tenant_id, requirement_id) IN (SELECT * FROM unnest(?::uuid[], ?::bigint[])) OFFSET 0) AS r",
    [TENANTS, IDS],
  );
  const query = db
    .queryBuilder()
    .withMaterialized("t", db("requirement_types").whereRaw("tenant_id = ANY(?::uuid[])", [TENANTS]).select(REQUIREMENT_TYPE_COLUMNS))
    .from(reads)
    .join("t", (join) => join.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id"))
    .select(["r.tenant_id", ...REQUIREMENT_COLUMNS]);
  return includeDeleted ? query : query.whereNull("r.deleted_at");
}

/** The requirements a detail statement reads, by its scope. */
function requirementsOf(db: Db, includeDeleted: boolean, scope: Scope): Knex.QueryBuilder {
  if (scope === "sites") return ofSites(db, includeDeleted);
  const ofSite = selectRequirements(db, TENANT, { includeDeleted });
  return scope === "one" ? ofSite.where("r.requirement_id", ID) : ofSite.whereRaw("r.requirement_id = ANY(?::bigint[])", [IDS]);
}

/**
 * The detail statement, built with the query builder once per process (per includeDeleted and
 * scope): building it costs more CPU than PostgreSQL spends answering it. Several ids (and their
 * sites) travel as array literals, so the text is the same for any number of them.
 */
function detailStatement(db: Db, includeDeleted: boolean, scope: Scope): Statement {
  const key = `${includeDeleted}/${scope}`;
  const cached = statements.get(key);
  if (cached) return cached;
  const query = requirementsOf(db, includeDeleted, scope)
    .orderBy("r.requirement_id")
    .select(
      db.raw(
        `(SELECT json_agg(x.atlassian_component_id ORDER BY x.atlassian_component_id) ${ids("requirement_components")}) AS components`,
      ),
      db.raw(`(SELECT json_agg(x.atlassian_issue_id ORDER BY x.atlassian_issue_id) ${ids("requirement_issue_links")}) AS issues`),
      db.raw(`(SELECT json_agg(x.atlassian_content_id ORDER BY x.atlassian_content_id) ${ids("requirement_content_links")}) AS contents`),
      db.raw(
        `(SELECT json_object_agg(x.attribute_id, x.value ORDER BY x.attribute_id) ${ids("requirement_attribute_values")}) AS attributes`,
      ),
      db.raw(
        `(SELECT json_agg(json_build_object('original_file_name', x.original_file_name, 'uuid_file_name', x.uuid_file_name) ORDER BY x.created_at, x.uuid_file_name) ${ids("attachments")} AND x.operation = 'attachment') AS attachments`,
      ),
      db.raw(LINKED),
      db.raw(SUSPECT_LINKS_JSON),
    )
    .toSQL();
  const statement = {
    sql: query.sql,
    nativeSql: query.toNative().sql,
    bindings: query.bindings,
    name: `requirement_detail${includeDeleted ? "_with_deleted" : ""}${scope === "many" ? "" : `_${scope}`}`,
  };
  statements.set(key, statement);
  return statement;
}

/** PostgreSQL connections of the pool on which the detail statements are prepared, by name. */
const preparedOn = new WeakMap<object, Set<string>>();

type KnexClient = {
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<unknown>;
  query(connection: object, query: { sql: string; bindings: unknown[]; options?: object }): Promise<{ response: unknown }>;
};

/**
 * Runs the statement for several ids on the one plan PostgreSQL makes for it when it is prepared.
 * Left to itself (plan_cache_mode auto), PostgreSQL compares the generic plan's estimate, made for
 * an id array of unknown length, with its custom plans for the few ids of each run and keeps
 * planning every run: at 100,000 requirements 1.7 ms a read instead of 0.45 ms, planning costing it
 * more than executing. So this statement alone is executed with `SET LOCAL plan_cache_mode = force_generic_plan` in the same
 * message (one implicit transaction, so the setting ends with it; one round trip). Everything else,
 * pg-boss's statements included, keeps PostgreSQL's choice. Values travel as escaped literals;
 * `options.genericPlanOf` names the statement for whoever watches the queries (tests explain it).
 * Inside a transaction, and on PGlite (one connection, no pool), it runs as an ordinary statement.
 */
async function runOnGenericPlan(db: Db, statement: Statement, values: unknown[]): Promise<Record<string, unknown>[]> {
  const options = { genericPlanOf: { name: statement.name, sql: statement.nativeSql, bindings: values } };
  const onPool = (db.client.config as { client?: unknown }).client === "pg" && !db.isTransaction;
  if (!onPool) return (await db.raw(statement.sql, values as Knex.RawBinding[]).options(options)).rows;
  const client = db.client as unknown as KnexClient;
  const connection = await client.acquireConnection();
  try {
    let prepared = preparedOn.get(connection);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(connection, prepared);
    }
    if (!prepared.has(statement.name)) {
      await client.query(connection, { sql: `PREPARE ${statement.name} AS ${statement.nativeSql}`, bindings: [] });
      prepared.add(statement.name);
    }
    const literals = values.map((value) => db.raw("?", [value as Knex.Value]).toQuery());
    const sql = `SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE ${statement.name}(${literals.join(", ")})`;
    const { response } = await client.query(connection, { sql, bindings: [], options });
    const results = response as { rows: Record<string, unknown>[] }[];
    return results[results.length - 1]?.rows ?? [];
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * One requirement's statement, prepared on its connection (the extended protocol, by name):
 * PostgreSQL plans it for the first five runs, then keeps the generic plan, whose estimate for one
 * id by its primary key is the custom plans' own. No setting needed, one round trip.
 */
async function runPrepared(db: Db, statement: Statement, values: unknown[]): Promise<Record<string, unknown>[]> {
  const options = { name: statement.name, genericPlanOf: { name: statement.name, sql: statement.nativeSql, bindings: values } };
  return (await db.raw(statement.sql, values as Knex.RawBinding[]).options(options)).rows;
}

/** A detail statement's rows as details, in the statement's order. */
const toDetailRow = (row: Record<string, unknown>): RequirementDetailRow => ({
  ...toRow(row),
  components: asJson<unknown[]>(row.components, []).map(String),
  issues: asJson<unknown[]>(row.issues, []).map(String),
  contents: asJson<unknown[]>(row.contents, []).map(String),
  attributes: Object.fromEntries(Object.entries(asJson<Record<string, unknown>>(row.attributes, {})).map(([k, v]) => [k, String(v)])),
  attachments: asJson(row.attachments, []),
  linked: asJson<Record<string, unknown>[]>(row.linked, []).map(toLinkedRow),
  suspect_links: asJson<Record<string, unknown>[]>(row.suspect_links, []).map(toSuspectLinkRow),
});

/** Ids as one PostgreSQL array literal (never beyond bigint: callers pass safe integers). */
const arrayLiteral = (values: readonly (string | number)[]) => `{${values.join(",")}}`;

/**
 * Requirements with their relations and linked requirements in one round trip (one aggregate
 * subquery per table), in id order: the detail is read on every selection in the tree.
 */
export async function findRequirementDetails(
  db: Db,
  tenantId: string,
  requirementIds: number[],
  options: { includeDeleted?: boolean } = {},
): Promise<RequirementDetailRow[]> {
  if (requirementIds.length === 0) return [];
  const ids = requirementIds.map((id) => Math.trunc(Number(id)));
  const one = ids.length === 1;
  const statement = detailStatement(db, options.includeDeleted ?? false, one ? "one" : "many");
  const values = statement.bindings.map((value) =>
    value === TENANT ? tenantId : value === IDS ? arrayLiteral(ids) : value === ID ? ids[0] : value,
  );
  const rows = one ? await runPrepared(db, statement, values) : await runOnGenericPlan(db, statement, values);
  return rows.map(toDetailRow);
}

/** A read of one requirement of one site. */
type SiteRead = { tenantId: string; requirementId: number };
const readKey = (read: SiteRead) => `${read.tenantId}/${read.requirementId}`;

/**
 * Reads of requirements of several sites in one statement, each matched by its site and id, so a
 * site's read never gets another site's requirement, whatever ids they share. The answers are in
 * the reads' order, undefined where a site has no such requirement.
 */
async function findRequirementDetailsOfSites(db: Db, reads: readonly SiteRead[]): Promise<(RequirementDetailRow | undefined)[]> {
  const statement = detailStatement(db, false, "sites");
  const values = statement.bindings.map((value) =>
    value === TENANTS
      ? arrayLiteral(reads.map((read) => read.tenantId))
      : value === IDS
        ? arrayLiteral(reads.map((read) => read.requirementId))
        : value,
  );
  const rows = await runOnGenericPlan(db, statement, values);
  const found = new Map(rows.map((row) => [readKey({ tenantId: String(row.tenant_id), requirementId: Number(row.requirement_id) }), row]));
  return reads.map((read) => {
    const row = found.get(readKey(read));
    return row ? toDetailRow(row) : undefined;
  });
}

/** Requirements one batched statement reads at most; more wait for the next one. */
const MAX_BATCHED_READS = 100;
/** Single reads waiting for this turn of the event loop to end, by database. */
const pendingReads = new WeakMap<Db, DataLoader<SiteRead, RequirementDetailRow | undefined, string>>();

/**
 * One requirement's detail, read in ONE statement with the other single reads, of any site, that
 * arrive in the same turn of the event loop (DataLoader, no cache: each read still sees the latest
 * commit). Every selection in the tree reads a detail: under load, one round trip then answers
 * many panels instead of each waiting for a connection of its own (docs/decisions.md, issue 14).
 * A server serves many sites at once, so a turn's reads are mostly of different sites: they share
 * the statement too, each row matched by its site. Reads are shared per database handle: a
 * transaction's reads share only with its own, and see its writes.
 */
export function findRequirementDetail(db: Db, tenantId: string, requirementId: number): Promise<RequirementDetailRow | undefined> {
  // Beyond bigint, the statement would fail, and with it every read sharing it.
  if (!Number.isSafeInteger(requirementId) || requirementId < 0) return Promise.resolve(undefined);
  let loader = pendingReads.get(db);
  if (!loader) {
    const batch = new DataLoader<SiteRead, RequirementDetailRow | undefined, string>(
      async (reads) => {
        const site = reads[0]?.tenantId ?? tenantId;
        if (reads.some((read) => read.tenantId !== site)) return findRequirementDetailsOfSites(db, reads);
        const byId = new Map(
          (await findRequirementDetails(db, site, [...new Set(reads.map((read) => read.requirementId))])).map((row) => [
            row.requirement_id,
            row,
          ]),
        );
        return reads.map((read) => byId.get(read.requirementId));
      },
      {
        cache: false,
        maxBatchSize: MAX_BATCHED_READS,
        // After the poll phase: every request the event loop read in this turn has asked by then.
        batchScheduleFn: (dispatch) =>
          setImmediate(() => {
            if (pendingReads.get(db) === batch) pendingReads.delete(db);
            dispatch();
          }),
      },
    );
    loader = batch;
    pendingReads.set(db, batch);
  }
  return loader.load({ tenantId, requirementId });
}
