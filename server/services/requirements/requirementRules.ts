import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "../../../common/schemas/requirement.js";
import { findFolder, lockFolderTree } from "../../db/folderStore.js";
import { findRequirements, isDisplayIdTaken, lockRequirements } from "../../db/requirements/index.js";
import { findRequirementType } from "../../db/requirementTypeStore.js";
import { isUniqueViolationOf } from "../../db/queryHelpers.js";
import { AppError, fieldError, fieldErrors } from "../../errors.js";
import type { AccessDecision } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import type { WriteDeps } from "./requirementWrite.js";

export const STALE_EDIT_MESSAGE = "This requirement was changed by someone else since you opened it. Reload it to see their changes.";
export const TYPE_LOCKED_MESSAGE = "To edit the requirement type, remove any linked requirements below.";
export const DISPLAY_ID_TAKEN_MESSAGE = "This ID is already used by another requirement in this project";

/**
 * Spec sections 4 and 9: links only between levels one apart, never to itself, within the project
 * or with Global Requirements. `deps.db` is the saving transaction; `access` is Jira's answer asked
 * before it opened (askJiraBeforeTransaction).
 */
export async function assertLinkTargets(
  deps: WriteDeps,
  actor: Actor,
  self: { requirementId?: number; projectId: number; level: number },
  linkedIds: number[],
  field: string,
  access: AccessDecision,
): Promise<void> {
  if (linkedIds.length === 0) return;
  if (self.requirementId !== undefined && linkedIds.includes(self.requirementId)) {
    throw fieldError(field, "A requirement cannot be linked to itself");
  }
  // The targets locked as the save's touch of them would lock them, and their types shared, so a
  // concurrent delete of a target or a level change of its type waits for this save and then sees
  // its link (it had linked a deleted requirement, or across levels); the levels read again under those locks.
  const locked = await lockRequirements(deps.db, actor.tenantId, linkedIds);
  for (const typeId of new Set(locked.map((row) => row.requirement_type_id))) {
    await findRequirementType(deps.db, actor.tenantId, typeId, "share");
  }
  const existing = await findRequirements(deps.db, actor.tenantId, linkedIds);
  // One of a project the person may not browse does not exist for them.
  const rows = existing.filter((row) => access.browses(row.project_id));
  const found = new Set(rows.map((row) => row.requirement_id));
  const missing = linkedIds.filter((id) => !found.has(id));
  if (missing.length > 0) throw fieldError(field, `Linked requirement ${missing.join(", ")} does not exist`);
  for (const row of rows) {
    if (row.project_id !== self.projectId && row.project_id !== 0 && self.projectId !== 0) {
      throw fieldError(field, "Linked requirements must be in the same project or in Global Requirements");
    }
    if (Math.abs(row.level - self.level) !== 1) {
      throw fieldError(field, `Only requirements one level above or below (level ${self.level - 1} or ${self.level + 1}) can be linked`);
    }
  }
}

/**
 * Spec section 4: Global Requirements have no status, components or assignee (they are Jira
 * project data); a save that sets them there is refused rather than storing ids no screen shows.
 */
export function assertNoProjectFieldsInGlobal(
  projectId: number,
  values: { status?: string | null; components?: string[]; assigned_to?: string | null },
): void {
  if (projectId !== GLOBAL_PROJECT_ID) return;
  const errors: Record<string, string[]> = {};
  if (values.status) errors.status = ["Global Requirements have no status"];
  if (values.components?.length) errors.components = ["Global Requirements have no components"];
  if (values.assigned_to) errors.assigned_to = ["Global Requirements have no assignee"];
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
}

/** `deps.db` is the saving transaction: the folder stays where it is until it commits. */
export async function assertFolderInProject(deps: ServiceDeps, actor: Actor, folderId: number | null, projectId: number) {
  if (folderId === null) return;
  // Shared until commit: the folder cannot be deleted or moved away while something is put into it.
  await lockFolderTree(deps.db, actor.tenantId, projectId, "contents");
  const folder = await findFolder(deps.db, actor.tenantId, folderId);
  if (!folder || folder.project_id !== projectId) {
    throw fieldError("parent_folder_id", "The folder does not exist in this project");
  }
}

export async function assertDisplayIdFree(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  displayId: string | null,
  exceptRequirementId?: number,
): Promise<void> {
  if (displayId !== null && (await isDisplayIdTaken(deps.db, actor.tenantId, projectId, displayId, exceptRequirementId))) {
    throw displayIdTaken();
  }
}

export const displayIdTaken = () => new AppError(409, { display_id: [DISPLAY_ID_TAKEN_MESSAGE] });

/** A concurrent insert that slipped past the check still answers with the field message. */
export const isDisplayIdUniqueViolation = (error: unknown) => isUniqueViolationOf(error, "requirements_display_id_unique");

/**
 * Spec sections 5 and 9: a requirement links at most 20 wiki pages. The request schema says so too;
 * this holds for every caller (forms, imports, seeds). The page macro editor's save checks it per requirement.
 */
export function assertContentLimit(contentIds: readonly string[]): void {
  if (new Set(contentIds).size > MAX_LINKED_CONTENTS) throw fieldError("contents", CONTENT_LIMIT_MESSAGE);
}
