import { requirementLabel } from "../../../common/labels.js";
import type { LinkableRequirement } from "../../db/issueLinkStore.js";
import type { RequirementEventState } from "../notifications/requirementSaved.js";

export function requirementEventState(requirement: LinkableRequirement, issueIds: string[]): RequirementEventState {
  return {
    requirementId: requirement.requirementId,
    projectId: requirement.projectId,
    label: requirementLabel({
      prefix: requirement.prefix,
      display_id: requirement.displayId,
      requirement_id: requirement.requirementId,
      name: requirement.name,
    }),
    name: requirement.name,
    statusId: requirement.statusId,
    assignedTo: requirement.assignedTo,
    issueIds,
  };
}
