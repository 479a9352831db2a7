import type { Db } from "./knex.js";

/**
 * The requirements a coverage view counts: those of the projects, in these folders when given (a
 * folder's subtree, listed beforehand: the planner then knows how many requirements they hold, and
 * probes the links of a few while it hashes the links of many).
 */
export type CoverageScope = { projectIds: readonly number[]; folderIds?: readonly number[] | undefined };

export type CoverageLevelRow = { level: number; requirements: number; covered_by_next_level: number };
export type CoverageRow = {
  requirements: number;
  with_issues: number;
  levels: CoverageLevelRow[];
  /** The Jira issues linked to the scope's requirements (an issue linked to several: as often), for Jira to tell which are done. */
  issueIds: string[];
};

export type UncoveredRow = {
  requirement_id: number;
  display_id: string | null;
  prefix: string;
  name: string;
  level: number;
  atlassian_project_id: number;
  parent_folder_id: number | null;
};

export type Uncovered = "issues" | "next_level";

/**
 * The scope's active requirements (`columns` of each, from `r` and its type `t`), materialised once
 * for the statement's several reads of it.
 */
function scopeSql(scope: CoverageScope, columns: string): string {
  return `WITH scope AS MATERIALIZED (
      SELECT ${columns}
      FROM requirements r
      JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
      WHERE r.tenant_id = :tenantId AND r.project_id = ANY(CAST(:projectIds AS bigint[])) AND r.deleted_at IS NULL
        ${scope.folderIds === undefined ? "" : "AND r.parent_folder_id = ANY(CAST(:folderIds AS bigint[]))"}
    )`;
}

/*
 * The link checks of a scope requirement `s`, each a semi-join (an anti-join under NOT) that the
 * planner runs as one hash of the whole link set for a large scope, or as index probes for a small
 * one; never a subquery per requirement, which at 100,000 requirements read 1.35 million buffers
 * and cost enough to make PostgreSQL compile it (JIT, 2 s) first.
 */
const HAS_ISSUES = `EXISTS (SELECT 1 FROM requirement_issue_links il WHERE il.tenant_id = :tenantId AND il.requirement_id = s.requirement_id)`;

/**
 * Linked to an active requirement of the next level, through links stored at `own` (links are
 * stored once per pair, so a requirement is covered through either column): one check per column,
 * as an OR of the two would be a subquery per requirement again.
 */
function linkedToNextLevel(own: "requirement_id" | "linked_requirement_id"): string {
  const other = own === "requirement_id" ? "linked_requirement_id" : "requirement_id";
  return `EXISTS (
      SELECT 1 FROM requirement_links x
      JOIN requirements o ON o.tenant_id = :tenantId AND o.requirement_id = x.${other} AND o.deleted_at IS NULL
      JOIN requirement_types ot ON ot.tenant_id = :tenantId AND ot.requirement_type_id = o.requirement_type_id
      WHERE x.tenant_id = :tenantId AND x.${own} = s.requirement_id AND ot.level = s.level + 1
    )`;
}

/**
 * A level some live requirement type of the site sits one below: only such a level can be covered by
 * the next. The lowest level has no next, so it has no figure and no "uncovered by next level" list
 * (counted as 0 % it read as a traceability gap). One hashed set of the site's few type levels.
 */
function hasNextLevel(level: string): string {
  return `${level} + 1 IN (SELECT nt.level FROM requirement_types nt WHERE nt.tenant_id = :tenantId AND nt.deleted_at IS NULL)`;
}

function scopeBindings(tenantId: string, scope: CoverageScope) {
  const idArray = (ids: readonly number[] | undefined) => (ids === undefined ? null : `{${ids.join(",")}}`);
  return { tenantId, projectIds: idArray(scope.projectIds), folderIds: idArray(scope.folderIds) };
}

function coverageStatement(tenantId: string, scope: CoverageScope): { sql: string; bindings: Record<string, unknown> } {
  return {
    sql: `${scopeSql(scope, "r.requirement_id, t.level")}
    SELECT
      (SELECT COALESCE(json_agg(json_build_object('level', p.level, 'requirements', p.requirements, 'covered_by_next_level', COALESCE(c.covered, 0)) ORDER BY p.level), '[]'::json)
       FROM (SELECT level, count(*) AS requirements FROM scope GROUP BY level) p
       LEFT JOIN (
         SELECT level, count(*) AS covered FROM (
           SELECT s.requirement_id, s.level FROM scope s WHERE ${linkedToNextLevel("requirement_id")}
           UNION
           SELECT s.requirement_id, s.level FROM scope s WHERE ${linkedToNextLevel("linked_requirement_id")}
         ) covered GROUP BY level
       ) c ON c.level = p.level
       WHERE ${hasNextLevel("p.level")}) AS levels,
      (SELECT count(*) FROM scope) AS requirements,
      (SELECT count(*) FROM scope s WHERE ${HAS_ISSUES}) AS with_issues,
      (SELECT string_agg(il.atlassian_issue_id, ',') FROM scope s
       JOIN requirement_issue_links il ON il.tenant_id = :tenantId AND il.requirement_id = s.requirement_id) AS issue_ids`,
    bindings: scopeBindings(tenantId, scope),
  };
}

/**
 * The figures of one coverage view, counted by the database in one statement. The linked issues
 * come as one string, repeats included: Jira's batches drop the repeats (issueIdBatches) at less
 * cost than the database's sort or hash of 200,000 links at 100,000 requirements.
 */
export async function coverageOf(db: Db, tenantId: string, scope: CoverageScope): Promise<CoverageRow> {
  const statement = coverageStatement(tenantId, scope);
  const result = await db.raw(statement.sql, statement.bindings);
  const row = (result.rows as Record<string, unknown>[])[0] ?? {};
  const levels = (typeof row.levels === "string" ? JSON.parse(row.levels) : (row.levels ?? [])) as CoverageLevelRow[];
  const counted = levels.map((level) => ({
    level: Number(level.level),
    requirements: Number(level.requirements),
    covered_by_next_level: Number(level.covered_by_next_level),
  }));
  const issueIds = typeof row.issue_ids === "string" && row.issue_ids !== "" ? row.issue_ids.split(",") : [];
  return {
    requirements: Number(row.requirements ?? 0),
    with_issues: Number(row.with_issues ?? 0),
    levels: counted,
    issueIds,
  };
}

/** `limit` of the scope's requirements lacking the coverage asked for, from `offset` in requirement id order, and how many lack it. */
export async function uncoveredRequirements(
  db: Db,
  tenantId: string,
  scope: CoverageScope,
  uncovered: Uncovered,
  window: { offset: number; limit: number },
): Promise<{ rows: UncoveredRow[]; total: number }> {
  const lacking =
    uncovered === "issues"
      ? `NOT ${HAS_ISSUES}`
      : `NOT ${linkedToNextLevel("requirement_id")} AND NOT ${linkedToNextLevel("linked_requirement_id")}`;
  // Applied to the anti-join's rows, not inside it: there the planner turned the anti-joins into a
  // subquery per requirement (1.26 million buffers at 100,000 requirements, against 10,878).
  const listed = uncovered === "issues" ? "TRUE" : hasNextLevel("u.level");
  // The anti-join runs once: its rows are both counted and paged.
  const result = await db.raw(
    `${scopeSql(scope, "r.requirement_id, r.display_id, t.prefix, r.name, t.level, r.project_id, r.parent_folder_id")},
    uncovered AS MATERIALIZED (SELECT * FROM scope s WHERE ${lacking})
    SELECT (SELECT count(*) FROM uncovered u WHERE ${listed}) AS total,
      (SELECT COALESCE(json_agg(json_build_object('requirement_id', w.requirement_id, 'display_id', w.display_id, 'prefix', w.prefix,
          'name', w.name, 'level', w.level, 'atlassian_project_id', w.project_id, 'parent_folder_id', w.parent_folder_id) ORDER BY w.requirement_id), '[]'::json)
       FROM (SELECT * FROM uncovered u WHERE ${listed} ORDER BY requirement_id OFFSET :offset LIMIT :limit) w) AS rows`,
    { ...scopeBindings(tenantId, scope), offset: window.offset, limit: window.limit },
  );
  const row = (result.rows as Record<string, unknown>[])[0] ?? {};
  const rows = (typeof row.rows === "string" ? JSON.parse(row.rows) : (row.rows ?? [])) as UncoveredRow[];
  return {
    total: Number(row.total ?? 0),
    rows: rows.map((r) => ({
      requirement_id: Number(r.requirement_id),
      display_id: r.display_id ?? null,
      prefix: String(r.prefix),
      name: String(r.name),
      level: Number(r.level),
      atlassian_project_id: Number(r.atlassian_project_id),
      parent_folder_id: r.parent_folder_id === null ? null : Number(r.parent_folder_id),
    })),
  };
}
