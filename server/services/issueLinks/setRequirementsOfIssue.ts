import type { AuthContext } from "../../connect/appToken.js";
import {
  addIssueLinks,
  issueIdsOfRequirements,
  type LinkableRequirement,
  lockRequirements,
  lockRequirementsLinkedToIssue,
  removeIssueLinks,
  writeIssuesRevision,
} from "../../db/issueLinkStore.js";
import type { AppDeps } from "../../deps.js";
import { fieldErrors } from "../../errors.js";
import type { RequirementEventState } from "../events.js";
import { findJiraIssue } from "./findJiraIssue.js";
import { requirementEventState } from "./requirementEventState.js";

export const GLOBAL_PROJECT_ID = 0;

type Change = { requirementId: number; before: RequirementEventState; after: RequirementEventState };

/**
 * The link dialog's save: afterwards exactly `requirementIds` of the issue's project and of the
 * global project are linked to the issue. Links from requirements of other projects (an issue
 * moved between projects) are outside what the dialog shows and stay as they are.
 * Every requirement whose links change gets a revision; listeners hear of it after the commit.
 */
export async function setRequirementsOfIssue(
  deps: Pick<AppDeps, "db" | "hostClient" | "events">,
  auth: Pick<AuthContext, "tenantId" | "accountId">,
  issueId: string,
  requirementIds: number[],
): Promise<{ requirements: number[] }> {
  const { tenantId, accountId } = auth;
  const issue = await findJiraIssue(deps.hostClient, tenantId, issueId);
  const inScope = (requirement: LinkableRequirement) =>
    requirement.projectId === issue.projectId || requirement.projectId === GLOBAL_PROJECT_ID;
  const wanted = [...new Set(requirementIds)];

  const { changes, linked } = await deps.db.transaction(async (trx) => {
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

    const changes: Change[] = [];
    for (const requirement of touched) {
      const before = issuesBefore.get(requirement.requirementId) ?? [];
      const after = issuesAfter.get(requirement.requirementId) ?? [];
      await writeIssuesRevision(trx, tenantId, requirement, accountId, after);
      changes.push({
        requirementId: requirement.requirementId,
        before: requirementEventState(requirement, before),
        after: requirementEventState(requirement, after),
      });
    }
    return { changes, linked: requested.map((requirement) => requirement.requirementId) };
  });

  for (const change of changes) deps.events.emit("requirementSaved", { tenantId, accountId, ...change });
  return { requirements: linked };
}
