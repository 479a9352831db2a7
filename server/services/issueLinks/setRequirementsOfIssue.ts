import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import { addIssueLinks, removeIssueLinks, requirementIdsLinkedToIssue } from "../../db/issueLinkStore.js";
import type { RequirementRow } from "../../db/requirements/index.js";
import { fieldErrors, forbidden } from "../../errors.js";
import { ACCESS_MESSAGES, mayAccessProject, requireProjectAccess } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import { findJiraIssue } from "./findJiraIssue.js";

/**
 * The link dialog's save: afterwards exactly `requirementIds` of the issue's project and of the
 * global project are linked to the issue. Links from requirements of other projects (an issue
 * moved between projects) are outside what the dialog shows and stay as they are.
 * Every requirement whose links change gets an "updated" revision through the one write path, and
 * its notifications are enqueued in the same transaction.
 * The person must browse the issue's project (else the issue is not found, as in Jira), and edit
 * it when a requirement of that project gains or loses the link.
 */
export async function setRequirementsOfIssue(
  deps: ServiceDeps<"hostClient" | "jobs" | "access" | "logger">,
  actor: Actor,
  issueId: string,
  requirementIds: number[],
): Promise<{ requirements: number[] }> {
  const { tenantId } = actor;
  const issue = await findJiraIssue(deps, actor, issueId);
  await requireProjectAccess(deps, actor, issue.projectId, "browse", "Issue");
  // Asked before the transaction: Jira's answer may need the database, whose connection the transaction may hold.
  const mayEdit = await mayAccessProject(deps, actor, issue.projectId, "edit");
  const inScope = (requirement: RequirementRow) =>
    requirement.project_id === issue.projectId || requirement.project_id === GLOBAL_PROJECT_ID;
  const wanted = [...new Set(requirementIds)];

  const linked = await withRequirementWrite(deps, actor, async (write) => {
    const { tx } = write;
    // Both sides locked together, in id order: a concurrent save of one of them waits.
    const locked = await write.lock([...wanted, ...(await requirementIdsLinkedToIssue(tx, tenantId, issueId))]);
    const found = new Set(locked.map((requirement) => requirement.requirement_id));
    const requested = locked.filter((requirement) => wanted.includes(requirement.requirement_id));
    const problems = [
      ...wanted.filter((id) => !found.has(id)).map((id) => `Requirement ${id} not found`),
      ...requested
        .filter((requirement) => !inScope(requirement))
        .map((requirement) => `Requirement ${requirement.requirement_id} is not in this issue's project or global`),
    ];
    if (problems.length > 0) throw fieldErrors({ requirements: problems });

    const linkedNow = new Set(await requirementIdsLinkedToIssue(tx, tenantId, issueId));
    const current = locked.filter((requirement) => linkedNow.has(requirement.requirement_id) && inScope(requirement));
    const toAdd = requested.filter((requirement) => !linkedNow.has(requirement.requirement_id)).map((r) => r.requirement_id);
    const toRemove = current.filter((requirement) => !wanted.includes(requirement.requirement_id)).map((r) => r.requirement_id);

    const changed = locked.filter(
      (requirement) => toAdd.includes(requirement.requirement_id) || toRemove.includes(requirement.requirement_id),
    );
    if (!mayEdit && changed.some((requirement) => requirement.project_id !== GLOBAL_PROJECT_ID)) throw forbidden(ACCESS_MESSAGES.edit);
    await write.readBefore([...toAdd, ...toRemove]);
    await addIssueLinks(tx, tenantId, issueId, toAdd);
    await removeIssueLinks(tx, tenantId, issueId, toRemove);
    for (const requirementId of [...toAdd, ...toRemove]) {
      write.record({ requirementId, action: "updated", changedFields: ["issues"], notify: true });
    }
    return requested.map((requirement) => requirement.requirement_id);
  });

  return { requirements: linked };
}
