import type { Attachment, RequirementDetail, UpdateRequirementValues } from "../../../common/schemas/requirement.js";
import {
  addLinks,
  attachmentsOwnedElsewhere,
  removeLinks,
  replaceAttachments,
  replaceAttributeValues,
  replaceComponents,
  replaceContentLinks,
  replaceIssueLinks,
  type RequirementChanges,
  setRequirementColumns,
} from "../../db/requirements/index.js";
import { findRequirementType } from "../../db/requirementTypeStore.js";
import { conflict, fieldError, notFound } from "../../errors.js";
import { validateAttributeValues } from "../attributes/validateAttributeValues.js";
import { verifyAddedAttachments } from "../storage/requirementAttachments.js";
import {
  assertContentLimit,
  assertDisplayIdFree,
  assertFolderInProject,
  assertLinkTargets,
  assertNoProjectFieldsInGlobal,
  displayIdTaken,
  isDisplayIdUniqueViolation,
  STALE_EDIT_MESSAGE,
  TYPE_LOCKED_MESSAGE,
} from "./requirementRules.js";
import { type AccessDecision, accessDepsOf, askJiraBeforeTransaction } from "../access/projectAccess.js";
import { hiddenLinksRestricted } from "../access/restrictedRequirements.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "./requirementWrite.js";

/** Any subset of the PUT body; absent fields keep their value. PATCH sends only attachments. */
export type RequirementEdit = Partial<UpdateRequirementValues>;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((value, index) => value === [...b].sort()[index]);
const unique = <T>(values: T[]) => [...new Set(values)];
const attachmentKey = (attachment: Attachment) => `${attachment.uuid_file_name}\u0000${attachment.original_file_name}`;

/**
 * PUT and PATCH /api/requirement/{id}: one revision with the changed fields, or nothing when nothing
 * changed. Files added to the attachment list are checked in storage first; removed ones leave it after.
 * Links to requirements of projects the person may not browse stay whatever the list sent: one
 * cannot remove what one is not shown. Called inside a transaction of its own (an import), it takes
 * `access`, the decision Jira's answer gave before that transaction opened.
 */
export async function updateRequirement(
  deps: ServiceDeps<"storage" | "jobs" | "hostClient" | "access" | "logger">,
  actor: Actor,
  requirementId: number,
  edit: RequirementEdit,
  access?: AccessDecision,
): Promise<RequirementDetail> {
  const { tenantId } = actor;
  const attachments = edit.attachments && [
    ...new Map(edit.attachments.map((attachment) => [attachment.uuid_file_name, attachment])).values(),
  ];
  if (attachments) await verifyAddedAttachments(deps, actor, requirementId, attachments);
  // Which links the person may see, and link, is decided inside the transaction by this answer alone.
  const decision = access ?? (await askJiraBeforeTransaction(accessDepsOf(deps), actor));
  let after: RequirementDetail | undefined;
  try {
    after = await withRequirementWrite(deps, actor, async (write) => {
      const { tx, deps: inTransaction } = write;
      const [current] = await write.lock([requirementId], { folderId: edit.parent_folder_id });
      if (!current) throw notFound("Requirement");
      if (edit.revision !== undefined && edit.revision !== current.revision) throw conflict(STALE_EDIT_MESSAGE);
      assertNoProjectFieldsInGlobal(current.project_id, edit);
      const [before] = await write.readBefore([requirementId]);
      if (!before) throw notFound("Requirement");

      const changes: RequirementChanges = {};
      const changedFields: string[] = [];
      const change = <K extends keyof RequirementChanges>(field: string, column: K, value: RequirementChanges[K]) => {
        changes[column] = value;
        changedFields.push(field);
      };

      if (edit.name !== undefined && edit.name !== before.name) change("name", "name", edit.name);
      const description = edit.description ?? undefined;
      if (description !== undefined && description !== before.description) change("description", "description", description);
      if (edit.display_id !== undefined && edit.display_id !== before.display_id) {
        await assertDisplayIdFree(inTransaction, actor, current.project_id, edit.display_id, requirementId);
        change("display_id", "display_id", edit.display_id);
      }
      if (edit.assigned_to !== undefined && edit.assigned_to !== current.assigned_to) {
        change("assigned_to", "assigned_to", edit.assigned_to);
      }
      if (edit.status !== undefined && edit.status !== current.status_id) change("status", "status_id", edit.status);
      if (edit.parent_folder_id !== undefined && edit.parent_folder_id !== current.parent_folder_id) {
        await assertFolderInProject(inTransaction, actor, edit.parent_folder_id, current.project_id);
        change("parent_folder_id", "parent_folder_id", edit.parent_folder_id);
      }

      const currentLinks = before.linked_requirements_v2.map((linked) => linked.requirement_id);
      const hiddenLinks = before.linked_requirements_v2
        .filter((linked) => !decision.browses(linked.project))
        .map((linked) => linked.requirement_id);
      const nextLinks = edit.linked_requirements === undefined ? currentLinks : unique([...edit.linked_requirements, ...hiddenLinks]);
      let level = current.level;
      if (edit.requirement_type_id !== undefined && edit.requirement_type_id !== current.requirement_type_id) {
        // The form clears its links when the type changes and saves both in one PUT, so only links
        // this save keeps lock the type: they fit the old level. Added links are checked below against the new one.
        if (currentLinks.some((id) => nextLinks.includes(id))) throw fieldError("requirement_type_id", TYPE_LOCKED_MESSAGE);
        const type = await findRequirementType(tx, tenantId, edit.requirement_type_id, "share");
        if (!type) throw fieldError("requirement_type_id", "Choose an existing requirement type");
        level = type.level;
        change("requirement_type_id", "requirement_type_id", type.requirement_type_id);
      }

      const added = nextLinks.filter((id) => !currentLinks.includes(id));
      const removed = currentLinks.filter((id) => !nextLinks.includes(id));
      if (added.length > 0) {
        await assertLinkTargets(
          inTransaction,
          actor,
          { requirementId, projectId: current.project_id, level },
          added,
          "linked_requirements",
          decision,
        );
      }
      if (added.length > 0 || removed.length > 0) changedFields.push("linked_requirements");

      const components = edit.components && unique(edit.components);
      const beforeComponents = before.components.map((c) => c.atlassian_component_id);
      if (components && !sameList(components, beforeComponents)) changedFields.push("components");
      const issues = edit.issues && unique(edit.issues);
      const beforeIssues = before.issues.map((i) => i.atlassian_issue_id);
      if (issues && !sameList(issues, beforeIssues)) changedFields.push("issues");
      const contents = edit.contents && unique(edit.contents);
      if (contents) assertContentLimit(contents);
      const beforeContents = before.contents.map((c) => c.atlassian_content_id);
      if (contents && !sameList(contents, beforeContents)) changedFields.push("contents");

      const attributes = edit.attributes && (await validateAttributeValues(inTransaction, actor, current.project_id, edit.attributes));
      if (attributes && JSON.stringify(attributes) !== JSON.stringify(before.attributes)) changedFields.push("attributes");

      if (attachments) {
        const taken = await attachmentsOwnedElsewhere(
          tx,
          tenantId,
          requirementId,
          attachments.map((attachment) => attachment.uuid_file_name),
        );
        if (taken.length > 0) throw fieldError("attachments", `The file ${taken.join(", ")} belongs to another requirement`);
        if (!sameList(attachments.map(attachmentKey), before.attachments.map(attachmentKey))) {
          changedFields.push("attachments");
        }
      }

      const answer = async () => (await write.readAfter([requirementId]))[0];
      if (changedFields.length === 0) return answer();

      await setRequirementColumns(tx, tenantId, [requirementId], changes);
      if (components && changedFields.includes("components")) await replaceComponents(tx, tenantId, requirementId, components);
      if (issues && changedFields.includes("issues")) await replaceIssueLinks(tx, tenantId, requirementId, issues);
      if (contents && changedFields.includes("contents")) await replaceContentLinks(tx, tenantId, requirementId, contents);
      if (attributes && changedFields.includes("attributes")) {
        await replaceAttributeValues(tx, tenantId, requirementId, attributes);
      }
      if (attachments && changedFields.includes("attachments")) {
        await replaceAttachments(tx, tenantId, requirementId, attachments, actor.accountId);
      }
      await addLinks(tx, tenantId, requirementId, added);
      await removeLinks(tx, tenantId, requirementId, removed);

      write.record({ requirementId, action: "updated", changedFields, notify: true });
      for (const id of [...added, ...removed]) {
        write.record({ requirementId: id, action: "updated", changedFields: ["linked_requirements"] });
      }
      return answer();
    });
  } catch (error) {
    if (isDisplayIdUniqueViolation(error)) throw displayIdTaken();
    throw error;
  }
  if (!after) throw notFound("Requirement");
  const [linked] = hiddenLinksRestricted([after.linked_requirements_v2], (projectId) => decision.browses(projectId));
  return { ...after, linked_requirements_v2: linked ?? [] };
}
