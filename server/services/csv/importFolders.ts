import { insertFolder, listFolderChildren } from "../../db/folderStore.js";
import type { Db } from "../../db/knex.js";

/**
 * The folders of an import's Folder column, below the dialog's target: each name is matched
 * exactly among its parent's active child folders and created when missing, on the import's
 * transaction (a refused import rolls the new folders back with its rows). Each parent's children
 * are read once and each path resolved once per import, however many rows share it.
 */
export class ImportFolders {
  private readonly idOfPath = new Map<string, number | null>();
  private readonly childrenOf = new Map<number | null, Map<string, number>>();

  constructor(
    private readonly db: Db,
    private readonly tenantId: string,
    private readonly target: { projectId: number; folderId: number | null; createdBy: string },
  ) {}

  /** The folder a row's path names (the target itself for an empty path). */
  async folderOf(path: string[]): Promise<number | null> {
    // As JSON: a name may hold any text, so no separator keeps two paths apart.
    const key = JSON.stringify(path);
    const known = this.idOfPath.get(key);
    if (known !== undefined) return known;
    let folderId = this.target.folderId;
    for (const name of path) folderId = await this.child(folderId, name);
    this.idOfPath.set(key, folderId);
    return folderId;
  }

  private async child(parentId: number | null, name: string): Promise<number> {
    const children = await this.children(parentId);
    const existing = children.get(name);
    if (existing !== undefined) return existing;
    const created = await insertFolder(this.db, this.tenantId, {
      projectId: this.target.projectId,
      parentFolderId: parentId,
      name,
      createdBy: this.target.createdBy,
    });
    children.set(name, created);
    // A folder just created has no children: nothing to read.
    this.childrenOf.set(created, new Map());
    return created;
  }

  /**
   * Every folder the import resolved or created, the target included: its rows and new folders hang
   * below them, so all must still be there when it commits (the tree is not locked while it reads).
   */
  folderIds(): number[] {
    const ids = [this.target.folderId, ...this.childrenOf.keys(), ...this.idOfPath.values()];
    return [...new Set(ids.filter((id): id is number => id !== null))];
  }

  /** Active child folders by exact name; of two with one name the first by id, as the tree lists them. */
  private async children(parentId: number | null): Promise<Map<string, number>> {
    const cached = this.childrenOf.get(parentId);
    if (cached) return cached;
    const children = new Map<string, number>();
    for (const folder of await listFolderChildren(this.db, this.tenantId, this.target.projectId, [parentId])) {
      if (!children.has(folder.name)) children.set(folder.name, folder.folder_id);
    }
    this.childrenOf.set(parentId, children);
    return children;
  }
}
