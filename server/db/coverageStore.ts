import type { Db } from "./knex.js";

/** The requirements a coverage view counts: those of the projects, under the folder (its whole subtree) when one is given. */
export type CoverageScope = { projectIds: readonly number[]; folderId?: number | undefined };

export type CoverageLevelRow = { level: number; requirements: number; covered_by_next_level: number };
export type CoverageRow = {
  requirements: number;
  with_issues: number;
  levels: CoverageLevelRow[];
  /** The distinct Jira issues linked to the scope's requirements, for Jira to tell which are done. */
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
 * The scope's active requirements with their level and both coverage marks. Links are stored once
 * per pair, so a requirement is covered by the next level through a link either way, each read
 * through its own index, the linked requirement then one primary-key probe.
 */
function scopeSql(scope: CoverageScope): string {
  return `WITH RECURSIVE subtree AS (
      SELECT folder_id FROM folders WHERE tenant_id = :tenantId AND folder_id = :folderId AND deleted_at IS NULL
      UNION
      SELECT f.folder_id FROM folders f JOIN subtree s ON f.parent_folder_id = s.folder_id
      WHERE f.tenant_id = :tenantId AND f.deleted_at IS NULL
    ),
    scope AS (
      SELECT r.tenant_id, r.requirement_id, r.display_id, t.prefix, r.name, t.level, r.project_id, r.parent_folder_id,
        EXISTS (SELECT 1 FROM requirement_issue_links il WHERE il.tenant_id = r.tenant_id AND il.requirement_id = r.requirement_id) AS has_issues,
        EXISTS (
          SELECT 1 FROM (
            SELECT x.linked_requirement_id AS other FROM requirement_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id
            UNION ALL
            SELECT x.requirement_id FROM requirement_links x WHERE x.tenant_id = r.tenant_id AND x.linked_requirement_id = r.requirement_id
          ) l
          JOIN requirements o ON o.tenant_id = r.tenant_id AND o.requirement_id = l.other AND o.deleted_at IS NULL
          JOIN requirement_types ot ON ot.tenant_id = o.tenant_id AND ot.requirement_type_id = o.requirement_type_id
          WHERE ot.level = t.level + 1
        ) AS covered_by_next_level
      FROM requirements r
      JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
      WHERE r.tenant_id = :tenantId AND r.project_id = ANY(CAST(:projectIds AS bigint[])) AND r.deleted_at IS NULL
        ${scope.folderId !== undefined ? "AND r.parent_folder_id IN (SELECT folder_id FROM subtree)" : ""}
    )`;
}

function scopeBindings(tenantId: string, scope: CoverageScope) {
  return { tenantId, folderId: scope.folderId ?? null, projectIds: `{${scope.projectIds.join(",")}}` };
}

function coverageStatement(tenantId: string, scope: CoverageScope): { sql: string; bindings: Record<string, unknown> } {
  return {
    sql: `${scopeSql(scope)}
    SELECT (SELECT count(*) FROM scope) AS requirements,
      (SELECT count(*) FROM scope WHERE has_issues) AS with_issues,
      (SELECT COALESCE(json_agg(json_build_object('level', g.level, 'requirements', g.requirements, 'covered_by_next_level', g.covered) ORDER BY g.level), '[]'::json)
       FROM (SELECT level, count(*) AS requirements, count(*) FILTER (WHERE covered_by_next_level) AS covered FROM scope GROUP BY level) g) AS levels,
      (SELECT COALESCE(array_agg(DISTINCT il.atlassian_issue_id), '{}')
       FROM scope s JOIN requirement_issue_links il ON il.tenant_id = s.tenant_id AND il.requirement_id = s.requirement_id
       WHERE s.has_issues) AS issue_ids`,
    bindings: scopeBindings(tenantId, scope),
  };
}

/** The figures of one coverage view, counted by the database in one statement. */
export async function coverageOf(db: Db, tenantId: string, scope: CoverageScope): Promise<CoverageRow> {
  const statement = coverageStatement(tenantId, scope);
  const result = await db.raw(statement.sql, statement.bindings);
  const row = (result.rows as Record<string, unknown>[])[0] ?? {};
  const levels = (typeof row.levels === "string" ? JSON.parse(row.levels) : (row.levels ?? [])) as CoverageLevelRow[];
  return {
    requirements: Number(row.requirements ?? 0),
    with_issues: Number(row.with_issues ?? 0),
    levels: levels.map((level) => ({
      level: Number(level.level),
      requirements: Number(level.requirements),
      covered_by_next_level: Number(level.covered_by_next_level),
    })),
    issueIds: ((row.issue_ids as unknown[] | null) ?? []).map(String),
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
  const mark = uncovered === "issues" ? "has_issues" : "covered_by_next_level";
  const result = await db.raw(
    `${scopeSql(scope)}
    SELECT (SELECT count(*) FROM scope WHERE NOT ${mark}) AS total,
      (SELECT COALESCE(json_agg(json_build_object('requirement_id', w.requirement_id, 'display_id', w.display_id, 'prefix', w.prefix,
          'name', w.name, 'level', w.level, 'atlassian_project_id', w.project_id, 'parent_folder_id', w.parent_folder_id) ORDER BY w.requirement_id), '[]'::json)
       FROM (SELECT * FROM scope WHERE NOT ${mark} ORDER BY requirement_id OFFSET :offset LIMIT :limit) w) AS rows`,
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
