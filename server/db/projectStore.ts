import type { Db } from "./knex.js";

/**
 * The distinct projects of one table's live rows, read as a skip scan over an index that starts
 * (tenant_id, project_id): one index probe per project instead of a read of every row.
 */
const distinctProjectsOf = (table: "requirements" | "folders" | "baselines") => `
  SELECT project_id FROM (
    WITH RECURSIVE projects(project_id) AS (
      (SELECT project_id FROM ${table} WHERE tenant_id = :tenantId AND deleted_at IS NULL ORDER BY project_id LIMIT 1)
      UNION ALL
      SELECT (SELECT t.project_id FROM ${table} t
              WHERE t.tenant_id = :tenantId AND t.deleted_at IS NULL AND t.project_id > projects.project_id
              ORDER BY t.project_id LIMIT 1)
      FROM projects WHERE projects.project_id IS NOT NULL
    )
    SELECT project_id FROM projects WHERE project_id IS NOT NULL
  ) ${table}_projects`;

/**
 * Every project the site keeps requirements, folders or baselines of (Global Requirements, 0,
 * included when it has any): what one permission check asks Jira about for a person.
 */
export async function projectIdsInUse(db: Db, tenantId: string): Promise<number[]> {
  const { rows } = (await db.raw(
    `${distinctProjectsOf("requirements")} UNION ${distinctProjectsOf("folders")} UNION ${distinctProjectsOf("baselines")}`,
    { tenantId },
  )) as { rows: { project_id: string | number }[] };
  return rows.map((row) => Number(row.project_id)).sort((a, b) => a - b);
}

/** What a request may name by id, and where that id and its project live. */
const OWNERS = {
  requirement: { table: "requirements", id: "requirement_id" },
  folder: { table: "folders", id: "folder_id" },
  baseline: { table: "baselines", id: "baseline_id" },
} as const;
export type ProjectOwner = keyof typeof OWNERS | "attachment";

/**
 * The projects the named objects belong to, deleted ones included (a deleted requirement's
 * history stays readable to whoever may browse its project). Unknown ids name no project.
 */
export async function projectIdsOf(db: Db, tenantId: string, owner: ProjectOwner, ids: readonly (number | string)[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows: { project_id: string | number }[] =
    owner === "attachment"
      ? await db("attachments as a")
          .join("requirements as r", (join) => join.on("r.tenant_id", "a.tenant_id").andOn("r.requirement_id", "a.requirement_id"))
          .where("a.tenant_id", tenantId)
          .whereIn("a.uuid_file_name", ids.map(String))
          .distinct("r.project_id")
      : await db(OWNERS[owner].table).where("tenant_id", tenantId).whereIn(OWNERS[owner].id, ids).distinct("project_id");
  return rows.map((row) => Number(row.project_id));
}
