import type { Db } from "./knex.js";

/**
 * The matrix rows of a project as JSON text, built by PostgreSQL in one statement: the project's
 * live requirements (the requirements_tree index), each with its links read from the primary key
 * of requirement_issue_links. The API sends the text as it comes, so 10,000 rows cost one query
 * and no parse/serialise round in Node.
 */
export async function matrixRowsJson(db: Db, tenantId: string, projectId: number): Promise<string> {
  const result = await db.raw(
    `SELECT COALESCE(json_agg(json_build_object(
        'requirements', json_build_array(json_build_object(
          'requirement_id', r.requirement_id,
          'display_id', r.display_id,
          'prefix', t.prefix,
          'name', r.name,
          'requirement_type_id', r.requirement_type_id)),
        'issues', COALESCE(l.issues, '[]'::json)
      ) ORDER BY r.requirement_id), '[]'::json)::text AS rows
     FROM requirements r
     JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
     LEFT JOIN LATERAL (
       SELECT json_agg(json_build_object('atlassian_issue_id', il.atlassian_issue_id)
                       ORDER BY il.created_at, il.atlassian_issue_id) AS issues
       FROM requirement_issue_links il
       WHERE il.tenant_id = r.tenant_id AND il.requirement_id = r.requirement_id
     ) l ON true
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL`,
    [tenantId, projectId],
  );
  return String((result.rows as { rows: string }[])[0]?.rows ?? "[]");
}

export async function countMatrixRows(db: Db, tenantId: string, projectId: number): Promise<number> {
  const row = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .count<{ count: string | number }[]>("* as count")
    .first();
  return Number(row?.count ?? 0);
}

/** A matrix row as the export writes it. */
export type ExportRow = {
  requirementId: number;
  displayId: string | null;
  prefix: string;
  name: string;
  typeName: string;
  issueIds: string[];
};

/**
 * The next `limit` rows after `afterRequirementId`, in requirement id order: the export walks
 * the project page by page (keyset), so its memory does not grow with the project.
 */
export async function matrixRowsPage(
  db: Db,
  tenantId: string,
  projectId: number,
  afterRequirementId: number,
  limit: number,
): Promise<ExportRow[]> {
  const result = await db.raw(
    `SELECT r.requirement_id, r.display_id, t.prefix, r.name, t.name AS type_name,
            COALESCE(l.issue_ids, '{}') AS issue_ids
     FROM requirements r
     JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
     LEFT JOIN LATERAL (
       SELECT array_agg(il.atlassian_issue_id ORDER BY il.created_at, il.atlassian_issue_id) AS issue_ids
       FROM requirement_issue_links il
       WHERE il.tenant_id = r.tenant_id AND il.requirement_id = r.requirement_id
     ) l ON true
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL AND r.requirement_id > ?
     ORDER BY r.requirement_id
     LIMIT ?`,
    [tenantId, projectId, afterRequirementId, limit],
  );
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    requirementId: Number(row.requirement_id),
    displayId: (row.display_id as string | null) ?? null,
    prefix: String(row.prefix),
    name: String(row.name),
    typeName: String(row.type_name),
    issueIds: (row.issue_ids as string[]).map(String),
  }));
}
