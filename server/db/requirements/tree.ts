/** The tree: requirements under folders, light enough for folders of thousands. */
import type { Db } from "../knex.js";
import { byParents, countUnder, type ListWindow } from "../queryHelpers.js";
import { type RequirementRow, withRequirementTypes } from "./rows.js";

/** What a tree item shows: no description or dates, so a folder of thousands stays light. */
export type RequirementItemRow = Pick<RequirementRow, "requirement_id" | "parent_folder_id" | "display_id" | "name" | "prefix" | "level">;

/** Active requirements of a project under the given parents (null = the top level), by id; `window` pages one parent's. */
export async function listRequirementChildren(
  db: Db,
  tenantId: string,
  projectId: number,
  parentIds: (number | null)[],
  window?: ListWindow,
): Promise<RequirementItemRow[]> {
  if (window) {
    const ids = windowIds(db, tenantId, projectId, parentIds[0] ?? null, window);
    return toItemRows(await requirementsOf(db, tenantId, projectId).whereIn("r.requirement_id", ids));
  }
  if (parentIds.length === 0) return [];
  return toItemRows(await byParents(parentIds, () => requirementsOf(db, tenantId, projectId), "r.parent_folder_id"));
}

const requirementsOf = (db: Db, tenantId: string, projectId: number) =>
  withRequirementTypes(db, tenantId)
    .from("requirements as r")
    .join("t", "t.requirement_type_id", "r.requirement_type_id")
    .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
    .whereNull("r.deleted_at")
    .orderBy("r.requirement_id")
    .select("r.requirement_id", "r.parent_folder_id", "r.display_id", "r.name", "t.prefix", "t.level");

/**
 * The ids of one window of a level, found by an Index Only Scan of requirements_tree: with the
 * columns in the same query, PostgreSQL reads the rows the offset skips too (at 100,000 requirements
 * at the top level, a sort of all of them: 295 ms for the last window, against a few ms this way).
 */
const windowIds = (db: Db, tenantId: string, projectId: number, parentId: number | null, window: ListWindow) =>
  db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .where((query) => (parentId === null ? query.whereNull("parent_folder_id") : query.where("parent_folder_id", parentId)))
    .orderBy("requirement_id")
    .offset(window.offset)
    .limit(window.limit)
    .select("requirement_id");

function toItemRows(rows: Record<string, unknown>[]): RequirementItemRow[] {
  return rows.map((row) => ({
    requirement_id: Number(row.requirement_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    display_id: row.display_id === null ? null : String(row.display_id),
    name: String(row.name),
    prefix: String(row.prefix),
    level: Number(row.level),
  }));
}

/** How many active requirements are directly under the parent (null = the top level): an index-only count. */
export async function countRequirementChildren(db: Db, tenantId: string, projectId: number, parentId: number | null): Promise<number> {
  return countUnder(
    db("requirements").where({ tenant_id: tenantId, project_id: projectId }).whereNull("deleted_at"),
    "parent_folder_id",
    parentId,
  );
}

/** Where an active requirement lives: its project and folder (null = the top level). */
export type RequirementPlace = { requirement_id: number; project_id: number; parent_folder_id: number | null };

export async function findRequirementPlace(db: Db, tenantId: string, requirementId: number): Promise<RequirementPlace | undefined> {
  const row = await db("requirements")
    .where({ tenant_id: tenantId, requirement_id: requirementId })
    .whereNull("deleted_at")
    .first("project_id", "parent_folder_id");
  if (!row) return undefined;
  return {
    requirement_id: requirementId,
    project_id: Number(row.project_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
  };
}

/** How many active requirements of its folder come before this one by id, as the tree lists them: an index-only range of requirements_tree. */
export async function countRequirementsBefore(db: Db, tenantId: string, place: RequirementPlace): Promise<number> {
  return countUnder(
    db("requirements")
      .where({ tenant_id: tenantId, project_id: place.project_id })
      .whereNull("deleted_at")
      .where("requirement_id", "<", place.requirement_id),
    "parent_folder_id",
    place.parent_folder_id,
  );
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
