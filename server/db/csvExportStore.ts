import type { Db } from "./knex.js";

/** Active requirement ids of a project after `afterId`, in id order: the export reads a project page by page. */
export async function requirementIdsAfter(
  db: Db,
  tenantId: string,
  projectId: number,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows: { requirement_id: number }[] = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .where("requirement_id", ">", afterId)
    .orderBy("requirement_id")
    .limit(limit)
    .select("requirement_id");
  return rows.map((row) => Number(row.requirement_id));
}

/** The most components any active requirement of the project has: the export writes that many Component/s columns. */
export async function mostComponentsOfOneRequirement(db: Db, tenantId: string, projectId: number): Promise<number> {
  const row = await db("requirement_components as c")
    .join("requirements as r", function () {
      this.on("r.tenant_id", "c.tenant_id").andOn("r.requirement_id", "c.requirement_id");
    })
    .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
    .whereNull("r.deleted_at")
    .groupBy("c.requirement_id")
    .orderByRaw("count(*) desc")
    .first(db.raw("count(*) AS n"));
  return row ? Number(row.n) : 0;
}

/** Every active folder of a project (a project has hundreds, not millions): the export names each requirement's path. */
export async function projectFolders(
  db: Db,
  tenantId: string,
  projectId: number,
): Promise<{ folder_id: number; parent_folder_id: number | null; name: string }[]> {
  const rows = await db("folders")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .select("folder_id", "parent_folder_id", "name");
  return rows.map((row) => ({
    folder_id: Number(row.folder_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    name: String(row.name),
  }));
}
