/** The tree: requirements under folders, light enough for folders of thousands. */
import type { Db } from "./knex.js";
import { byParents } from "./queryHelpers.js";
import { type RequirementRow, withRequirementTypes } from "./requirementRows.js";

/** What a tree item shows: no description or dates, so a folder of thousands stays light. */
export type RequirementItemRow = Pick<
  RequirementRow,
  "requirement_id" | "parent_folder_id" | "display_id" | "name" | "prefix" | "level"
>;

/** Active requirements of a project under the given parents (null = the top level), by id. */
export async function listRequirementChildren(
  db: Db,
  tenantId: string,
  projectId: number,
  parentIds: (number | null)[],
): Promise<RequirementItemRow[]> {
  if (parentIds.length === 0) return [];
  const query = () =>
    withRequirementTypes(db, tenantId)
      .from("requirements as r")
      .join("t", "t.requirement_type_id", "r.requirement_type_id")
      .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
      .whereNull("r.deleted_at")
      .orderBy("r.requirement_id")
      .select("r.requirement_id", "r.parent_folder_id", "r.display_id", "r.name", "t.prefix", "t.level");
  const rows = await byParents(parentIds, query, "r.parent_folder_id");
  return rows.map((row: Record<string, unknown>) => ({
    requirement_id: Number(row.requirement_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    display_id: row.display_id === null ? null : String(row.display_id),
    name: String(row.name),
    prefix: String(row.prefix),
    level: Number(row.level),
  }));
}

/** The next `limit` active requirements in these folders after `afterRequirementId`, by id (keyset pages). */
export async function activeRequirementIdsInFolders(
  db: Db,
  tenantId: string,
  folderIds: number[],
  page: { afterRequirementId: number; limit: number },
): Promise<number[]> {
  if (folderIds.length === 0) return [];
  const rows = await db("requirements")
    .where("tenant_id", tenantId)
    .whereIn("parent_folder_id", folderIds)
    .whereNull("deleted_at")
    .where("requirement_id", ">", page.afterRequirementId)
    .orderBy("requirement_id")
    .limit(page.limit)
    .select("requirement_id");
  return rows.map((row) => Number(row.requirement_id));
}

export async function projectHasRequirements(db: Db, tenantId: string, projectId: number): Promise<boolean> {
  return (await db("requirements").where({ tenant_id: tenantId, project_id: projectId }).first("requirement_id")) !== undefined;
}
