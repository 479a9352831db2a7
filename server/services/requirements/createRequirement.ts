import type { CreateRequirementValues, RequirementDetail } from "../../../common/schemas/requirement.js";
import { addLinks } from "../../db/requirementLinkStore.js";
import { insertRequirement, replaceAttributeValues, replaceComponents, replaceContentLinks, replaceIssueLinks, touchRequirements } from "../../db/requirementWriteStore.js";
import { findRequirementType } from "../../db/requirementTypeStore.js";
import { fieldError, notFound } from "../../errors.js";
import { validateAttributeValues } from "../attributes/validateAttributeValues.js";
import {
  assertContentLimit,
  assertDisplayIdFree,
  assertFolderInProject,
  assertLinkTargets,
  assertNoProjectFieldsInGlobal,
  displayIdTaken,
  isDisplayIdUniqueViolation,
} from "./requirementRules.js";
import type { AccessDeps } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { eventStateOf, recordRevisions } from "./requirementViews.js";
import { notifyRequirementsSaved } from "../notifications/requirementSaved.js";

/** The transactional part, shared with the demo seed (`deps.db` is the transaction): answers the new requirement. */
export async function createRequirementIn(
  deps: AccessDeps,
  actor: Actor,
  input: CreateRequirementValues,
): Promise<RequirementDetail> {
  const { tenantId } = actor;
  const trx = deps.db;
  const type = await findRequirementType(trx, tenantId, input.requirement_type_id, "share");
  if (!type) throw fieldError("requirement_type_id", "Choose an existing requirement type");
  assertNoProjectFieldsInGlobal(input.project, input);
  await assertFolderInProject(deps, actor, input.parent_folder_id, input.project);
  await assertDisplayIdFree(deps, actor, input.project, input.display_id);
  assertContentLimit(input.contents);
  const linkedIds = [...new Set(input.requirements)];
  await assertLinkTargets(deps, actor, { projectId: input.project, level: type.level }, linkedIds, "requirements");
  const attributes = await validateAttributeValues(deps, actor, input.project, input.attributes);

  const requirementId = await insertRequirement(trx, tenantId, {
    projectId: input.project,
    parentFolderId: input.parent_folder_id,
    requirementTypeId: type.requirement_type_id,
    displayId: input.display_id,
    name: input.name,
    description: input.description,
    statusId: input.status,
    assignedTo: input.assigned_to,
    createdBy: actor.accountId,
  });
  await replaceComponents(trx, tenantId, requirementId, input.components);
  await replaceIssueLinks(trx, tenantId, requirementId, input.issues);
  await replaceContentLinks(trx, tenantId, requirementId, input.contents);
  await replaceAttributeValues(trx, tenantId, requirementId, attributes);
  await addLinks(trx, tenantId, requirementId, linkedIds);
  // The other side's linked_requirements changed too: its history and baselines must show it.
  await touchRequirements(trx, tenantId, linkedIds, {});

  const filled = [
    "name",
    "requirement_type_id",
    ...(input.display_id ? ["display_id"] : []),
    ...(input.description ? ["description"] : []),
    ...(input.assigned_to ? ["assigned_to"] : []),
    ...(input.status ? ["status"] : []),
    ...(input.components.length ? ["components"] : []),
    ...(input.issues.length ? ["issues"] : []),
    ...(input.contents.length ? ["contents"] : []),
    ...(linkedIds.length ? ["linked_requirements"] : []),
    ...(Object.keys(attributes).length ? ["attributes"] : []),
  ];
  const details = await recordRevisions(deps, actor, [
    { requirementId, action: "created", changedFields: filled },
    ...linkedIds.map((id) => ({ requirementId: id, action: "updated" as const, changedFields: ["linked_requirements"] })),
  ]);
  const detail = details.get(requirementId);
  if (!detail) throw notFound("Requirement");
  return detail;
}

/** POST /api/requirement: the requirement and its notifications commit together. */
export async function createRequirement(
  deps: ServiceDeps<"jobs" | "hostClient" | "access">,
  actor: Actor,
  input: CreateRequirementValues,
): Promise<RequirementDetail> {
  try {
    return await deps.db.transaction(async (trx) => {
      const inTransaction = { ...deps, db: trx };
      const detail = await createRequirementIn(inTransaction, actor, input);
      await notifyRequirementsSaved(inTransaction, actor, [
        { requirementId: detail.requirement_id, revision: detail.revision, after: eventStateOf(detail) },
      ]);
      return detail;
    });
  } catch (error) {
    if (isDisplayIdUniqueViolation(error)) throw displayIdTaken();
    throw error;
  }
}
