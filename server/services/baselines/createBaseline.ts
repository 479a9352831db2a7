import type { Baseline, CreateBaselineValues } from "../../../common/schemas/baseline.js";
import {
  type BaselineScopeFilter,
  findBaseline,
  freezeCurrentRevisions,
  insertBaseline,
  requirementIdsOutsideProject,
} from "../../db/baselineStore.js";
import { findFolder, folderSubtreeIds, lockFolderTree } from "../../db/folderStore.js";
import type { Db } from "../../db/knex.js";
import { AppError, fieldError } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { baselineOf } from "./baselineViews.js";

/** The scope the request names, checked against the project (spec section 5: all, folder or individual). */
async function scopeOf(db: Db, tenantId: string, input: CreateBaselineValues): Promise<BaselineScopeFilter> {
  if (input.select_all_requirements) return { kind: "all" };
  if (input.select_from_parent_folder) {
    const folderId = input.select_from_parent_folder_id;
    if (folderId === undefined || folderId === null) throw fieldError("select_from_parent_folder_id", "Required");
    // The subtree holds still until the baseline is taken (its requirements are read in the freezing statement).
    await lockFolderTree(db, tenantId, input.project, "contents");
    const folder = await findFolder(db, tenantId, folderId);
    if (!folder || folder.project_id !== input.project) {
      throw fieldError("select_from_parent_folder_id", "The folder does not exist in this project");
    }
    return { kind: "folders", folderIds: await folderSubtreeIds(db, tenantId, folderId) };
  }
  const requirementIds = [...new Set(input.requirements ?? [])];
  if (requirementIds.length === 0) throw fieldError("requirements", "Select at least one requirement");
  return { kind: "requirements", requirementIds };
}

/**
 * POST /api/baseline: one transaction, one INSERT … SELECT of the current revision of every
 * requirement in scope. An individual scope naming a requirement that is not an active one of
 * the project is refused whole.
 */
export async function createBaseline(deps: ServiceDeps, actor: Actor, input: CreateBaselineValues): Promise<Baseline> {
  const { tenantId } = actor;
  return deps.db.transaction(async (trx) => {
    const scope = await scopeOf(trx, tenantId, input);
    const baselineId = await insertBaseline(trx, tenantId, {
      projectId: input.project,
      name: input.name,
      description: input.description,
      createdBy: actor.accountId,
    });
    const frozen = await freezeCurrentRevisions(trx, tenantId, baselineId, input.project, scope);
    if (scope.kind === "requirements" && frozen !== scope.requirementIds.length) {
      const outside = await requirementIdsOutsideProject(trx, tenantId, input.project, scope.requirementIds);
      throw new AppError(400, { requirements: [`Requirement ${outside.join(", ")} is not a requirement of this project`] });
    }
    const row = await findBaseline(trx, tenantId, baselineId);
    if (!row) throw new Error(`Baseline ${baselineId} vanished inside its own transaction`);
    return baselineOf(row);
  });
}
