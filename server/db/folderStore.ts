import type { Knex } from "knex";
import type { Db } from "./knex.js";
import { asJson, byParents, countUnder, inWindow, type ListWindow, lockName } from "./queryHelpers.js";

export type FolderRow = {
  folder_id: number;
  project_id: number;
  parent_folder_id: number | null;
  name: string;
  description: string;
  has_descendant_folders: boolean;
  has_descendant_requirements: boolean;
  /** Linked Jira issues, by id. */
  issue_ids: string[];
};

const toRow = (row: Record<string, unknown>): FolderRow => ({
  folder_id: Number(row.folder_id),
  project_id: Number(row.project_id),
  parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
  name: String(row.name),
  description: String(row.description ?? ""),
  has_descendant_folders: row.has_descendant_folders === true,
  has_descendant_requirements: row.has_descendant_requirements === true,
  issue_ids: asJson<unknown[]>(row.issue_ids, []).map(String),
});

/**
 * Folder columns, the two descendant flags as index-only probes (no N+1, no counting) and the
 * linked issues, all in the folder query. The probes are `LIMIT 1` scalar subqueries rather than
 * EXISTS: PostgreSQL may run an EXISTS as a hashed subplan, which reads every folder of the table
 * to answer for a page of ten (the plan then grows with the tenant).
 */
function selectFolders(db: Db, tenantId: string): Knex.QueryBuilder {
  return db("folders as f")
    .where("f.tenant_id", tenantId)
    .whereNull("f.deleted_at")
    .select(
      "f.folder_id",
      "f.project_id",
      "f.parent_folder_id",
      "f.name",
      "f.description",
      db.raw(
        "(SELECT true FROM folders c WHERE c.tenant_id = f.tenant_id AND c.project_id = f.project_id AND c.parent_folder_id = f.folder_id AND c.deleted_at IS NULL LIMIT 1) IS NOT NULL AS has_descendant_folders",
      ),
      db.raw(
        "(SELECT true FROM requirements r WHERE r.tenant_id = f.tenant_id AND r.project_id = f.project_id AND r.parent_folder_id = f.folder_id AND r.deleted_at IS NULL LIMIT 1) IS NOT NULL AS has_descendant_requirements",
      ),
      db.raw(
        "(SELECT json_agg(i.atlassian_issue_id ORDER BY i.atlassian_issue_id) FROM folder_issues i WHERE i.tenant_id = f.tenant_id AND i.folder_id = f.folder_id) AS issue_ids",
      ),
    );
}

/** Active folders of a project under the given parents (null = the top level), by name; `window` pages one parent's. */
export async function listFolderChildren(
  db: Db,
  tenantId: string,
  projectId: number,
  parentIds: (number | null)[],
  window?: ListWindow,
): Promise<FolderRow[]> {
  if (parentIds.length === 0) return [];
  const rows = await byParents(
    parentIds,
    () =>
      inWindow(
        selectFolders(db, tenantId)
          .where("f.project_id", projectId)
          .orderBy([{ column: "f.name" }, { column: "f.folder_id" }]),
        window,
      ),
    "f.parent_folder_id",
  );
  return rows.map(toRow);
}

/** How many active folders are directly under the parent (null = the top level). */
export async function countFolderChildren(db: Db, tenantId: string, projectId: number, parentId: number | null): Promise<number> {
  return countUnder(
    db("folders").where({ tenant_id: tenantId, project_id: projectId }).whereNull("deleted_at"),
    "parent_folder_id",
    parentId,
  );
}

export async function findFolder(db: Db, tenantId: string, folderId: number): Promise<FolderRow | undefined> {
  const row = await selectFolders(db, tenantId).where("f.folder_id", folderId).first();
  return row ? toRow(row) : undefined;
}

/** How many of these folders are active (not deleted). */
export async function countActiveFolders(db: Db, tenantId: string, folderIds: number[]): Promise<number> {
  if (folderIds.length === 0) return 0;
  const row = await db("folders")
    .where("tenant_id", tenantId)
    .whereIn("folder_id", folderIds)
    .whereNull("deleted_at")
    .count<{ count: string | number }[]>("* as count")
    .first();
  return Number(row?.count ?? 0);
}

/** Locks the folder row until the transaction ends: two edits of one folder run one after the other. */
export async function lockFolder(db: Db, tenantId: string, folderId: number): Promise<void> {
  await db("folders").where({ tenant_id: tenantId, folder_id: folderId }).forUpdate().first("folder_id");
}

/**
 * Locks a project's folder tree until the transaction ends. A change of its shape (a folder
 * moved or deleted) takes it exclusively; a write that puts something into a folder (a
 * requirement created, edited, moved or imported there, a folder created there), or a read of a
 * subtree that must hold still (a folder's baseline), takes it shared and only then reads the folder. Row locks could not do this: a move checks the new parent's
 * ancestors, which two moves change at once (each move's check passed and the project's folders
 * became a cycle), and a delete lists a subtree that a concurrent write adds to (the requirement
 * then lived on in a deleted folder, shown nowhere).
 */
export async function lockFolderTree(db: Db, tenantId: string, projectId: number, mode: "shape" | "contents"): Promise<void> {
  await lockName(db, `folder-tree:${tenantId}:${projectId}`, mode === "shape" ? "exclusive" : "shared");
}

/** lockFolderTree of the project a folder belongs to, taken before the caller locks any requirement. */
export async function lockFolderTreeOf(db: Db, tenantId: string, folderId: number, mode: "shape" | "contents"): Promise<void> {
  const folder = await db("folders").where({ tenant_id: tenantId, folder_id: folderId }).first("project_id");
  if (folder) await lockFolderTree(db, tenantId, Number(folder.project_id), mode);
}

export async function insertFolder(
  db: Db,
  tenantId: string,
  folder: { projectId: number; parentFolderId: number | null; name: string; createdBy: string },
): Promise<number> {
  const [row] = await db("folders")
    .insert({
      tenant_id: tenantId,
      project_id: folder.projectId,
      parent_folder_id: folder.parentFolderId,
      name: folder.name,
      created_by: folder.createdBy,
    })
    .returning("folder_id");
  return Number(row.folder_id);
}

export async function updateFolder(
  db: Db,
  tenantId: string,
  folderId: number,
  changes: { name: string; description: string; parentFolderId: number | null },
): Promise<void> {
  await db("folders").where({ tenant_id: tenantId, folder_id: folderId }).update({
    name: changes.name,
    description: changes.description,
    parent_folder_id: changes.parentFolderId,
    updated_at: db.fn.now(),
  });
}

export async function replaceFolderIssues(db: Db, tenantId: string, folderId: number, issueIds: string[]): Promise<void> {
  await db("folder_issues").where({ tenant_id: tenantId, folder_id: folderId }).delete();
  const unique = [...new Set(issueIds)];
  if (unique.length === 0) return;
  await db("folder_issues").insert(unique.map((issueId) => ({ tenant_id: tenantId, folder_id: folderId, atlassian_issue_id: issueId })));
}

/** The folder and every active folder below it (UNION: a cycle left by moves before lockFolderTree ends the walk, not the request). */
export async function folderSubtreeIds(db: Db, tenantId: string, folderId: number): Promise<number[]> {
  const result = await db.raw(
    `WITH RECURSIVE subtree AS (
       SELECT folder_id FROM folders WHERE tenant_id = ? AND folder_id = ? AND deleted_at IS NULL
       UNION
       SELECT f.folder_id FROM folders f JOIN subtree s ON f.parent_folder_id = s.folder_id
       WHERE f.tenant_id = ? AND f.deleted_at IS NULL
     ) SELECT folder_id FROM subtree`,
    [tenantId, folderId, tenantId],
  );
  return (result.rows as { folder_id: number | string }[]).map((row) => Number(row.folder_id));
}

/** A folder on the way from one folder up to the top level: what places it among its siblings. */
export type PathFolder = { folder_id: number; project_id: number; parent_folder_id: number | null; name: string };

/** The folder and all its ancestors up to the top level, innermost first. */
export async function folderPath(db: Db, tenantId: string, folderId: number): Promise<PathFolder[]> {
  const result = await db.raw(
    `WITH RECURSIVE path AS (
       SELECT folder_id, project_id, parent_folder_id, name, 1 AS depth FROM folders WHERE tenant_id = ? AND folder_id = ?
       UNION ALL
       SELECT f.folder_id, f.project_id, f.parent_folder_id, f.name, p.depth + 1 FROM folders f JOIN path p ON f.folder_id = p.parent_folder_id
       WHERE f.tenant_id = ? AND p.depth < 10000
     ) SELECT folder_id, project_id, parent_folder_id, name FROM path ORDER BY depth`,
    [tenantId, folderId, tenantId],
  );
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    folder_id: Number(row.folder_id),
    project_id: Number(row.project_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    name: String(row.name),
  }));
}

export async function folderPathIds(db: Db, tenantId: string, folderId: number): Promise<number[]> {
  return (await folderPath(db, tenantId, folderId)).map((folder) => folder.folder_id);
}

/**
 * How many active folders of its parent the tree lists before this one (by name, then id, as
 * listFolderChildren orders them): its position in its level. A range of folders_tree.
 */
export async function countFoldersBefore(db: Db, tenantId: string, folder: PathFolder): Promise<number> {
  return countUnder(
    db("folders")
      .where({ tenant_id: tenantId, project_id: folder.project_id })
      .whereNull("deleted_at")
      .whereRaw("(name, folder_id) < (?, ?)", [folder.name, folder.folder_id]),
    "parent_folder_id",
    folder.parent_folder_id,
  );
}

export async function softDeleteFolders(db: Db, tenantId: string, folderIds: number[]): Promise<void> {
  if (folderIds.length === 0) return;
  await db("folders")
    .where("tenant_id", tenantId)
    .whereIn("folder_id", folderIds)
    .update({ deleted_at: db.fn.now(), updated_at: db.fn.now() });
}
