import { RESTRICTED_REQUIREMENT } from "../../../common/labels.js";
import type { LinkedRequirement } from "../../../common/schemas/requirement.js";
import type { Actor } from "../context.js";
import { type AccessDeps, projectAccessOf } from "./projectAccess.js";

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

/**
 * The linked requirements of a detail, a baseline's revisions or a comparison, each list with
 * those of projects the person may not browse shown restricted; Jira is asked once for all lists.
 */
export async function withHiddenLinksRestricted(
  deps: AccessDeps,
  actor: Actor,
  lists: readonly LinkedRequirement[][],
): Promise<LinkedRequirement[][]> {
  const projects = new Set(lists.flatMap((list) => list.map((linked) => linked.project)));
  if (projects.size === 0) return lists.map((list) => [...list]);
  const access = await projectAccessOf(deps, actor, projects);
  return lists.map((list) => list.map((linked) => (access.get(linked.project)?.browse ? linked : restrictedRequirement(linked))));
}
