import type { PageQuery } from "../../common/schemas/paging.js";
import type { ComparedField, DiffStatus } from "../../common/schemas/baseline.js";
import type { RequirementSnapshot } from "../../common/schemas/requirement.js";
import type { FrozenSuspectLink } from "../../common/schemas/suspectLinks.js";
import type { Knex } from "knex";
import type { Db } from "./knex.js";
import { asJson } from "./queryHelpers.js";
import { snapshotFromStored } from "./requirements/index.js";
import { FROZEN_SUSPECT_LINKS } from "./suspectLinkStore.js";

export type BaselineRow = {
  baseline_id: number;
  project_id: number;
  name: string;
  description: string;
  created_by: string;
  created_at: Date;
  requirement_count: number;
};

const toRow = (row: Record<string, unknown>): BaselineRow => ({
  baseline_id: Number(row.baseline_id),
  project_id: Number(row.project_id),
  name: String(row.name),
  description: String(row.description ?? ""),
  created_by: String(row.created_by),
  created_at: new Date(row.created_at as string),
  requirement_count: Number(row.requirement_count),
});

const BASELINE_COLUMNS = ["baseline_id", "project_id", "name", "description", "created_by", "created_at", "requirement_count"];

export async function insertBaseline(
  db: Db,
  tenantId: string,
  baseline: { projectId: number; name: string; description: string; createdBy: string },
): Promise<number> {
  const [row] = await db("baselines")
    .insert({
      tenant_id: tenantId,
      project_id: baseline.projectId,
      name: baseline.name,
      description: baseline.description,
      created_by: baseline.createdBy,
    })
    .returning("baseline_id");
  return Number(row.baseline_id);
}

/** Which requirements of the project a baseline freezes. */
export type BaselineScopeFilter =
  | { kind: "all" }
  /** Folder ids: the chosen folder and every folder below it. */
  | { kind: "folders"; folderIds: number[] }
  | { kind: "requirements"; requirementIds: number[] };

/**
 * Freezes the current revision of every active requirement of the project in scope, in one
 * INSERT … SELECT inside the database: `requirements.revision` names the revision row that holds
 * the current state, so nothing is copied but four keys per requirement, and its suspect marks
 * (issue 34; null for none, which most have). Answers how many.
 */
export async function freezeCurrentRevisions(
  db: Db,
  tenantId: string,
  baselineId: number,
  projectId: number,
  scope: BaselineScopeFilter,
): Promise<number> {
  const bindings: Knex.RawBinding[] = [baselineId, tenantId, projectId];
  let filter = "";
  if (scope.kind === "folders") {
    filter = "AND r.parent_folder_id = ANY(?::bigint[])";
    bindings.push(scope.folderIds);
  } else if (scope.kind === "requirements") {
    filter = "AND r.requirement_id = ANY(?::bigint[])";
    bindings.push(scope.requirementIds);
  }
  const result = await db.raw(
    `INSERT INTO baseline_revisions (tenant_id, baseline_id, requirement_id, revision, suspect_links)
     SELECT r.tenant_id, ?, r.requirement_id, r.revision, ${FROZEN_SUSPECT_LINKS} FROM requirements r
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL ${filter}`,
    bindings,
  );
  const count = Number((result as { rowCount?: number }).rowCount);
  await db("baselines").where({ tenant_id: tenantId, baseline_id: baselineId }).update({ requirement_count: count });
  return count;
}

/** Of the given ids, those that are not active requirements of the project. */
export async function requirementIdsOutsideProject(
  db: Db,
  tenantId: string,
  projectId: number,
  requirementIds: number[],
): Promise<number[]> {
  const found = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .whereIn("requirement_id", requirementIds)
    .pluck("requirement_id");
  const known = new Set(found.map(Number));
  return requirementIds.filter((id) => !known.has(id));
}

/** The project's baselines, newest first. */
/** Newest first; `limit + 1` rows from `offset`, so the caller knows whether another page follows. */
export async function listBaselines(db: Db, tenantId: string, projectId: number, page: PageQuery): Promise<BaselineRow[]> {
  const rows = await db("baselines")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .orderBy("baseline_id", "desc")
    .offset(page.offset)
    .limit(page.limit + 1)
    .select(BASELINE_COLUMNS);
  return rows.map(toRow);
}

export async function findBaseline(db: Db, tenantId: string, baselineId: number): Promise<BaselineRow | undefined> {
  const row = await db("baselines").where({ tenant_id: tenantId, baseline_id: baselineId }).whereNull("deleted_at").first(BASELINE_COLUMNS);
  return row ? toRow(row) : undefined;
}

/** The baseline row goes, and its revision pointers with it (cascade); the revisions themselves stay. */
export async function deleteBaseline(db: Db, tenantId: string, baselineId: number): Promise<boolean> {
  const deleted = await db("baselines").where({ tenant_id: tenantId, baseline_id: baselineId }).delete();
  return deleted > 0;
}

export type FrozenRevision = { revision: number; snapshot: RequirementSnapshot; suspectLinks: FrozenSuspectLink[] };

/**
 * One page of what a baseline froze, in requirement id order: the page of pointers is cut from
 * the primary key first (index-only), so only its own snapshots are looked up, at any offset.
 */
export async function pageBaselineRevisions(
  db: Db,
  tenantId: string,
  baselineId: number,
  page: { offset: number; limit: number },
): Promise<FrozenRevision[]> {
  const result = await db.raw(
    `SELECT b.requirement_id, b.revision, s.snapshot, b.suspect_links
     FROM (SELECT requirement_id, revision, suspect_links FROM baseline_revisions WHERE tenant_id = ? AND baseline_id = ?
           ORDER BY requirement_id OFFSET ? LIMIT ?) b
     JOIN requirement_revisions s ON s.tenant_id = ? AND s.requirement_id = b.requirement_id AND s.revision = b.revision
     ORDER BY b.requirement_id`,
    [tenantId, baselineId, page.offset, page.limit, tenantId],
  );
  return (result.rows as Record<string, unknown>[]).map(
    (row) => frozenRevision(Number(row.requirement_id), row.revision, row.snapshot, row.suspect_links)!,
  );
}

/**
 * A revision row's number and whole snapshot, and the suspect marks frozen with it; null where
 * the requirement has no revision (not in that baseline).
 */
function frozenRevision(requirementId: number, revision: unknown, snapshot: unknown, suspectLinks: unknown): FrozenRevision | null {
  if (revision === null || revision === undefined) return null;
  return {
    revision: Number(revision),
    snapshot: snapshotFromStored(snapshot, requirementId),
    suspectLinks: asJson<FrozenSuspectLink[]>(suspectLinks, []).map((mark) => ({
      ...mark,
      target_id: mark.link_type === "requirement" ? Number(mark.target_id) : String(mark.target_id),
    })),
  };
}

/**
 * How each compared field (spec section 9) is read from a stored snapshot (StoredSnapshot: a list
 * left out is empty; the type's id is in the frozen type). Host-id lists are frozen in id order
 * and attachments in upload order, so equal sets are equal arrays; linked requirements are
 * compared by id alone, since the names they carry are those of the moment of the link.
 */
const listOf = (snapshot: string, key: string) => `coalesce(${snapshot}->'${key}', '[]'::jsonb)`;
const FIELD_EXPRESSIONS: Record<Exclude<ComparedField, "suspect_links">, (snapshot: string) => string> = {
  name: (s) => `${s}->'name'`,
  requirement_type_id: (s) => `${s}->'requirement_type'->'requirement_type_id'`,
  assigned_to: (s) => `${s}->'assigned_to'`,
  status: (s) => `${s}->'status'`,
  components: (s) => listOf(s, "components"),
  description: (s) => `${s}->'description'`,
  linked_requirements: (s) => `jsonb_path_query_array(${listOf(s, "linked_requirements")}, '$[*].requirement_id')`,
  issues: (s) => listOf(s, "issues"),
  contents: (s) => listOf(s, "contents"),
  attachments: (s) => listOf(s, "attachments"),
};

const changedFieldsSql = `ARRAY_REMOVE(ARRAY[${Object.entries(FIELD_EXPRESSIONS)
  .map(([field, read]) => `CASE WHEN ${read("s1.snapshot")} IS DISTINCT FROM ${read("s2.snapshot")} THEN '${field}' END`)
  .join(", ")}]::text[], NULL)`;

export type RequirementDiffRow = {
  requirement_id: number;
  status: DiffStatus;
  changed_fields: ComparedField[];
  before: FrozenRevision | null;
  after: FrozenRevision | null;
};

/**
 * The comparison, computed by the database: a full outer join of the two baselines' revision
 * pointers in requirement id order (a merge of two primary-key range scans). Pairs on the same
 * revision are unchanged without reading a snapshot; only the others are looked up, one page at
 * a time, and classified by the compared fields.
 */
export async function compareBaselines(
  db: Db,
  tenantId: string,
  baselineIds: [number, number],
  options: { includeUnchanged: boolean; offset: number; limit: number },
): Promise<RequirementDiffRow[]> {
  // Suspect marks change without a revision (a review, a change at the link's other end): frozen beside the pointer, compared beside it.
  const samePointer = options.includeUnchanged
    ? ""
    : "WHERE a.revision IS DISTINCT FROM b.revision OR a.suspect_links IS DISTINCT FROM b.suspect_links";
  const hideUnchanged = options.includeUnchanged ? "" : "WHERE d.status <> 'unchanged'";
  const result = await db.raw(
    `SELECT d.* FROM (
       SELECT p.requirement_id, p.revision1, p.revision2, s1.snapshot AS snapshot1, s2.snapshot AS snapshot2, c.changed_fields,
         p.suspect1, p.suspect2,
         CASE WHEN p.revision1 IS NULL THEN 'added' WHEN p.revision2 IS NULL THEN 'removed'
              WHEN cardinality(c.changed_fields) = 0 THEN 'unchanged' ELSE 'changed' END AS status
       FROM (
         SELECT requirement_id, a.revision AS revision1, b.revision AS revision2, a.suspect_links AS suspect1, b.suspect_links AS suspect2
         FROM (SELECT requirement_id, revision, suspect_links FROM baseline_revisions WHERE tenant_id = ? AND baseline_id = ?) a
         FULL OUTER JOIN (SELECT requirement_id, revision, suspect_links FROM baseline_revisions WHERE tenant_id = ? AND baseline_id = ?) b
           USING (requirement_id)
         ${samePointer}
         ORDER BY requirement_id
         OFFSET 0
       ) p
       LEFT JOIN requirement_revisions s1
         ON s1.tenant_id = ? AND s1.requirement_id = p.requirement_id AND s1.revision = p.revision1
       LEFT JOIN requirement_revisions s2
         ON s2.tenant_id = ? AND s2.requirement_id = p.requirement_id AND s2.revision = p.revision2
       CROSS JOIN LATERAL (
         SELECT CASE WHEN p.revision1 <> p.revision2 THEN ${changedFieldsSql} ELSE '{}'::text[] END
           || CASE WHEN p.revision1 IS NOT NULL AND p.revision2 IS NOT NULL AND p.suspect1 IS DISTINCT FROM p.suspect2
                   THEN ARRAY['suspect_links'] ELSE '{}'::text[] END AS changed_fields
       ) c
     ) d
     ${hideUnchanged}
     ORDER BY d.requirement_id
     LIMIT ? OFFSET ?`,
    [tenantId, baselineIds[0], tenantId, baselineIds[1], tenantId, tenantId, options.limit, options.offset],
  );
  return (result.rows as Record<string, unknown>[]).map((row) => {
    const requirementId = Number(row.requirement_id);
    return {
      requirement_id: requirementId,
      status: row.status as DiffStatus,
      changed_fields: asJson<string[]>(row.changed_fields, []) as ComparedField[],
      before: frozenRevision(requirementId, row.revision1, row.snapshot1, row.suspect1),
      after: frozenRevision(requirementId, row.revision2, row.snapshot2, row.suspect2),
    };
  });
}
