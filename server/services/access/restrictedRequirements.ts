import { RESTRICTED_REQUIREMENT } from "../../../common/labels.js";
import type { LinkedRequirement } from "../../../common/schemas/requirement.js";
import type { Actor } from "../context.js";
import { type AccessDeps, browsableOf } from "./projectAccess.js";

/**
 * A linked requirement of a project the person may not browse, as they are shown it: that a link
 * exists (its id, so saving the linking requirement keeps it, and its level for the form's rule),
 * nothing of what it says: no name, prefix, custom ID or type.
 */
export const restrictedRequirement = (linked: LinkedRequirement): LinkedRequirement => ({
  requirement_id: linked.requirement_id,
  prefix: "",
  display_id: null,
  name: RESTRICTED_REQUIREMENT,
  project: linked.project,
  requirement_type_id: 0,
  level: linked.level,
  restricted: true,
});

/** The lists with the linked requirements of projects the person may not browse (`browses` tells) shown restricted. */
export function hiddenLinksRestricted(
  lists: readonly LinkedRequirement[][],
  browses: (projectId: number) => boolean,
): LinkedRequirement[][] {
  return lists.map((list) => list.map((linked) => (browses(linked.project) ? linked : restrictedRequirement(linked))));
}

/**
 * The linked requirements of a detail, a baseline's revisions or a comparison, each list with
 * those of projects the person may not browse shown restricted; Jira is asked once for all lists.
 */
export async function withHiddenLinksRestricted(
  deps: AccessDeps,
  actor: Actor,
  lists: readonly LinkedRequirement[][],
): Promise<LinkedRequirement[][]> {
  const projects = [...new Set(lists.flatMap((list) => list.map((linked) => linked.project)))];
  if (projects.length === 0) return lists.map((list) => [...list]);
  const shown = new Set(await browsableOf(deps, actor, projects));
  return hiddenLinksRestricted(lists, (projectId) => shown.has(projectId));
}
