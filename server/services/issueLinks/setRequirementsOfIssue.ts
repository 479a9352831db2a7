import {
  addIssueLinks,
  issueIdsOfRequirements,
  type LinkableRequirement,
  lockRequirements,
  lockRequirementsLinkedToIssue,
  removeIssueLinks,
} from "../../db/issueLinkStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { GLOBAL_PROJECT_ID } from "../../../common/schemas/item.js";
import { fieldErrors, forbidden } from "../../errors.js";
import { ACCESS_MESSAGES, mayAccessProject, requireProjectAccess } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { notifyRequirementsSaved } from "../notifications/requirementSaved.js";
import { recordRevisions } from "../requirements/requirementViews.js";
import { findJiraIssue } from "./findJiraIssue.js";
import { requirementEventState } from "./requirementEventState.js";

/**
 * The link dialog's save: afterwards exactly `requirementIds` of the issue's project and of the
 * global project are linked to the issue. Links from requirements of other projects (an issue
 * moved between projects) are outside what the dialog shows and stay as they are.
 * Every requirement whose links change gets an "updated" revision through the same path as every
 * other change, and its notifications are enqueued in the same transaction.
 * The person must browse the issue's project (else the issue is not found, as in Jira), and edit
 * it when a requirement of that project gains or loses the link.
 */
export async function setRequirementsOfIssue(
  deps: ServiceDeps<"hostClient" | "jobs" | "access">,
  actor: Actor,
  issueId: string,
  requirementIds: number[],
): Promise<{ requirements: number[] }> {
  const { tenantId } = actor;
  const issue = await findJiraIssue(deps, actor, issueId);
  await requireProjectAccess(deps, actor, issue.projectId, "browse", "Issue");
  // Asked before the transaction: Jira's answer may need the database, whose connection the transaction may hold.
  const mayEdit = await mayAccessProject(deps, actor, issue.projectId, "edit");
  const inScope = (requirement: LinkableRequirement) =>
    requirement.projectId === issue.projectId || requirement.projectId === GLOBAL_PROJECT_ID;
  const wanted = [...new Set(requirementIds)];

  const linked = await deps.db.transaction(async (trx) => {
    const requested = await lockRequirements(trx, tenantId, wanted);
    const found = new Set(requested.map((requirement) => requirement.requirementId));
    const problems = [
      ...wanted.filter((id) => !found.has(id)).map((id) => `Requirement ${id} not found`),
      ...requested
        .filter((requirement) => !inScope(requirement))
        .map((requirement) => `Requirement ${requirement.requirementId} is not in this issue's project or global`),
    ];
    if (problems.length > 0) throw fieldErrors({ requirements: problems });

    const current = (await lockRequirementsLinkedToIssue(trx, tenantId, issueId)).filter(inScope);
    const currentIds = new Set(current.map((requirement) => requirement.requirementId));
    const toAdd = requested.filter((requirement) => !currentIds.has(requirement.requirementId));
    const toRemove = current.filter((requirement) => !found.has(requirement.requirementId));
    const touched = [...toAdd, ...toRemove];
    if (!mayEdit && touched.some((requirement) => requirement.projectId !== GLOBAL_PROJECT_ID)) throw forbidden(ACCESS_MESSAGES.edit);

    const issuesBefore = await issueIdsOfRequirements(
      trx,
      tenantId,
      touched.map((requirement) => requirement.requirementId),
    );
    await addIssueLinks(
      trx,
      tenantId,
      issueId,
      toAdd.map((requirement) => requirement.requirementId),
    );
    await removeIssueLinks(
      trx,
      tenantId,
      issueId,
      toRemove.map((requirement) => requirement.requirementId),
    );
    const issuesAfter = await issueIdsOfRequirements(
      trx,
      tenantId,
      touched.map((requirement) => requirement.requirementId),
    );

    const touchedIds = touched.map((requirement) => requirement.requirementId);
    // The revision moves on, so an edit form opened before the link change gets its 409.
    await touchRequirements(trx, tenantId, touchedIds, {});
    const inTransaction = { ...deps, db: trx };
    const revised = await recordRevisions(
      inTransaction,
      actor,
      touchedIds.map((requirementId) => ({ requirementId, action: "updated", changedFields: ["issues"] })),
    );
    await notifyRequirementsSaved(
      inTransaction,
      actor,
      touched.flatMap((requirement) => {
        const revision = revised.get(requirement.requirementId)?.revision;
        if (revision === undefined) return [];
        return [
          {
            requirementId: requirement.requirementId,
            revision,
            before: requirementEventState(requirement, issuesBefore.get(requirement.requirementId) ?? []),
            after: requirementEventState(requirement, issuesAfter.get(requirement.requirementId) ?? []),
          },
        ];
      }),
    );
    return requested.map((requirement) => requirement.requirementId);
  });

  return { requirements: linked };
}
