import { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "../../../common/schemas/confluence.js";
import { requirementLabel } from "../../../common/labels.js";
import { addContentLinks, contentCounts, removeContentLinks, requirementIdsLinkedToContent } from "../../db/contentLinkStore.js";
import { lockRequirements } from "../../db/issueLinkStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { fieldErrors, notFound } from "../../errors.js";
import { projectAccessOf, requireProjectAccess } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { recordRevisions } from "../requirements/requirementViews.js";
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
  deps: ServiceDeps<"hostClient" | "access">,
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

  return deps.db.transaction(async (trx) => {
    const inTransaction = { ...deps, db: trx };
    const current = await requirementIdsLinkedToContent(trx, tenantId, contentId);
    // Both sides locked in id order: a concurrent form save of one of them waits, so the count below holds.
    const locked = await lockRequirements(trx, tenantId, [...new Set([...asked, ...current])]);
    const access = await projectAccessOf(inTransaction, actor, new Set(locked.map((requirement) => requirement.projectId)));
    const projectOf = new Map(locked.map((requirement) => [requirement.requirementId, requirement.projectId]));
    const shown = (id: number) => access.get(projectOf.get(id) ?? -1)?.browse === true;
    const found = new Set(locked.map((requirement) => requirement.requirementId).filter(shown));
    const missing = asked.filter((id) => !found.has(id));
    if (missing.length > 0) throw fieldErrors({ requirements: missing.map((id) => `Requirement ${id} not found`) });
    const wanted = [...asked, ...current.filter((id) => !shown(id))];

    const toAdd = wanted.filter((id) => !current.includes(id));
    const toRemove = current.filter((id) => !wanted.includes(id));
    const changedProjects = new Set([...toAdd, ...toRemove].map((id) => projectOf.get(id) ?? -1));
    await requireProjectAccess(inTransaction, actor, [...changedProjects], "edit");
    const counts = await contentCounts(trx, tenantId, toAdd);
    const full = locked.filter((requirement) => (counts.get(requirement.requirementId) ?? 0) >= MAX_LINKED_CONTENTS);
    if (full.length > 0) {
      throw fieldErrors({ requirements: full.map(
          (r) =>
            `${requirementLabel({ prefix: r.prefix, display_id: r.displayId, requirement_id: r.requirementId, name: r.name })}: ${CONTENT_LIMIT_MESSAGE}`,
        ) });
    }

    const touched = [...toAdd, ...toRemove].sort((a, b) => a - b);
    await addContentLinks(trx, tenantId, contentId, toAdd);
    await removeContentLinks(trx, tenantId, contentId, toRemove);
    await touchRequirements(trx, tenantId, touched, {});
    await recordRevisions(
      { ...deps, db: trx },
      actor,
      touched.map((requirementId) => ({ requirementId, action: "updated" as const, changedFields: ["contents"] })),
    );
    return { requirements: asked };
  });
}
