import { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "../../../common/schemas/confluence.js";
import { requirementLabel } from "../../../common/labels.js";
import { addContentLinks, contentCounts, removeContentLinks, requirementIdsLinkedToContent } from "../../db/contentLinkStore.js";
import { fieldErrors, notFound } from "../../errors.js";
import { accessDepsOf, askJiraBeforeTransaction } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import { pagesUserMayView } from "./pageRestrictions.js";
import { readWiki, type WikiContent } from "./wiki.js";

/**
 * The page macro editor's save (`PUT /api/confluence/content/{contentId}`): afterwards exactly
 * `requirementIds` are linked to the page. The page must exist in the site's Confluence, published
 * or as a draft (read as the app, before anything is written); every requirement whose links change gets a revision
 * through the one revision path, so Activity and baselines show it. No `requirementSaved` event:
 * its listeners (Jira comments, assignee emails) care for nothing a page link changes.
 * A page the person may not view is not found; requirements of projects they may not browse do
 * not exist for them (and their links to the page stay); changing a link needs edit in its project.
 */
export async function setRequirementsOfContent(
  deps: ServiceDeps<"hostClient" | "jobs" | "access" | "logger">,
  actor: Actor,
  contentId: string,
  requirementIds: number[],
): Promise<{ requirements: number[] }> {
  const { tenantId } = actor;
  // status=any: the macro editor also saves on a new page that has not been published yet.
  const content = await readWiki<WikiContent>(deps, actor, `/rest/api/content/${encodeURIComponent(contentId)}?status=any`, {
    missingIsUndefined: true,
  });
  if (!content || !(await pagesUserMayView(deps, actor, [contentId])).has(contentId)) throw notFound("Content");
  const asked = [...new Set(requirementIds)];
  // Which of the page's requirements the person may see and change is decided inside the transaction by this answer alone.
  const access = await askJiraBeforeTransaction(accessDepsOf(deps), actor);
  return withRequirementWrite(deps, actor, async (write) => {
    const { tx } = write;
    const current = await requirementIdsLinkedToContent(tx, tenantId, contentId);
    // Both sides locked in id order: a concurrent form save of one of them waits, so the count below holds.
    const locked = await write.lock([...asked, ...current]);
    const projectOf = new Map(locked.map((requirement) => [requirement.requirement_id, requirement.project_id]));
    const shown = (id: number) => projectOf.has(id) && access.browses(projectOf.get(id) ?? -1);
    const found = new Set(locked.map((requirement) => requirement.requirement_id).filter(shown));
    const missing = asked.filter((id) => !found.has(id));
    if (missing.length > 0) throw fieldErrors({ requirements: missing.map((id) => `Requirement ${id} not found`) });
    const wanted = [...asked, ...current.filter((id) => !shown(id))];

    const toAdd = wanted.filter((id) => !current.includes(id));
    const toRemove = current.filter((id) => !wanted.includes(id));
    access.require([...new Set([...toAdd, ...toRemove].map((id) => projectOf.get(id) ?? -1))], "edit");
    const counts = await contentCounts(tx, tenantId, toAdd);
    const full = locked.filter((requirement) => (counts.get(requirement.requirement_id) ?? 0) >= MAX_LINKED_CONTENTS);
    if (full.length > 0) {
      throw fieldErrors({ requirements: full.map((requirement) => `${requirementLabel(requirement)}: ${CONTENT_LIMIT_MESSAGE}`) });
    }

    await addContentLinks(tx, tenantId, contentId, toAdd);
    await removeContentLinks(tx, tenantId, contentId, toRemove);
    for (const requirementId of [...toAdd, ...toRemove]) write.record({ requirementId, action: "updated", changedFields: ["contents"] });
    return { requirements: asked };
  });
}
