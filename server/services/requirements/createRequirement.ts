import type { CreateRequirementValues, RequirementDetail } from "../../../common/schemas/requirement.js";
import {
  addLinks,
  insertRequirement,
  replaceAttributeValues,
  replaceComponents,
  replaceContentLinks,
  replaceIssueLinks,
} from "../../db/requirements/index.js";
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
import { type AccessDecision, accessDepsOf, askJiraBeforeTransaction } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { type RequirementWrite, withRequirementWrite } from "./requirementWrite.js";

/**
 * Creates one requirement inside a write (the demo seed creates many, each in a write of its own,
 * and tells nobody): answers its id. The requirements it links to get a revision too: their
 * linked_requirements changed. `access` is Jira's answer asked before the write's transaction opened.
 */
export async function createRequirementIn(
  write: RequirementWrite,
  input: CreateRequirementValues,
  access: AccessDecision,
  options: { notify: boolean } = { notify: true },
): Promise<number> {
  const { tx, actor, deps } = write;
  const { tenantId } = actor;
  const type = await findRequirementType(tx, tenantId, input.requirement_type_id, "share");
  if (!type) throw fieldError("requirement_type_id", "Choose an existing requirement type");
  assertNoProjectFieldsInGlobal(input.project, input);
  await assertFolderInProject(deps, actor, input.parent_folder_id, input.project);
  await assertDisplayIdFree(deps, actor, input.project, input.display_id);
  assertContentLimit(input.contents);
  const linkedIds = [...new Set(input.requirements)];
  await assertLinkTargets(deps, actor, { projectId: input.project, level: type.level }, linkedIds, "requirements", access);
  const attributes = await validateAttributeValues(deps, actor, input.project, input.attributes);

  const requirementId = await insertRequirement(tx, tenantId, {
    project_id: input.project,
    parent_folder_id: input.parent_folder_id,
    requirement_type_id: type.requirement_type_id,
    display_id: input.display_id,
    name: input.name,
    description: input.description,
    status_id: input.status,
    assigned_to: input.assigned_to,
    created_by: actor.accountId,
  });
  await replaceComponents(tx, tenantId, requirementId, input.components);
  await replaceIssueLinks(tx, tenantId, requirementId, input.issues);
  await replaceContentLinks(tx, tenantId, requirementId, input.contents);
  await replaceAttributeValues(tx, tenantId, requirementId, attributes);
  await addLinks(tx, tenantId, requirementId, linkedIds);

  write.record({ requirementId, action: "created", changedFields: [], notify: options.notify });
  for (const id of linkedIds) write.record({ requirementId: id, action: "updated", changedFields: ["linked_requirements"] });
  return requirementId;
}

/** POST /api/requirement: the requirement, its revision and its notifications commit together. */
export async function createRequirement(
  deps: ServiceDeps<"jobs" | "hostClient" | "access" | "logger">,
  actor: Actor,
  input: CreateRequirementValues,
): Promise<RequirementDetail> {
  const access = await askJiraBeforeTransaction(accessDepsOf(deps), actor, [input.project]);
  try {
    const [detail] = await withRequirementWrite(deps, actor, async (write) =>
      write.readAfter([await createRequirementIn(write, input, access)]),
    );
    if (!detail) throw notFound("Requirement");
    return detail;
  } catch (error) {
    if (isDisplayIdUniqueViolation(error)) throw displayIdTaken();
    throw error;
  }
}
