import type { Coverage, UncoveredRequirements } from "../../../common/schemas/coverage.js";
import { type CoverageScope, coverageOf, type Uncovered, uncoveredRequirements } from "../../db/coverageStore.js";
import { findFolder, folderSubtreeIds } from "../../db/folderStore.js";
import { notFound } from "../../errors.js";
import { type AccessDeps, browsableProjectIds, requireProjectAccess } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { issuesDone } from "../jira/issueDetails.js";
import { askedOrUnavailable, issuesUserMayBrowse } from "../jira/jiraPermissions.js";

export type CoverageRequest = {
  projectId?: number | undefined;
  folderId?: number | undefined;
};

/**
 * The requirements a view counts: a folder's subtree (in its own project, which must be the one
 * named if any), a project, or every project of the site the person may browse. A folder or a
 * project the person may not browse answers as a missing one.
 */
async function scopeOf(deps: AccessDeps, actor: Actor, request: CoverageRequest): Promise<CoverageScope> {
  if (request.folderId !== undefined) {
    const folder = await findFolder(deps.db, actor.tenantId, request.folderId);
    if (!folder || (request.projectId !== undefined && folder.project_id !== request.projectId)) throw notFound("Folder");
    await requireProjectAccess(deps, actor, folder.project_id, "browse", "Folder");
    return { projectIds: [folder.project_id], folderIds: await folderSubtreeIds(deps.db, actor.tenantId, folder.folder_id) };
  }
  if (request.projectId !== undefined) {
    await requireProjectAccess(deps, actor, request.projectId, "browse");
    return { projectIds: [request.projectId] };
  }
  return { projectIds: await browsableProjectIds(deps, actor) };
}

/**
 * The coverage figures of a view. The database counts everything but which linked issues are done:
 * Jira tells that, in bulk, for the issues the person may browse (the others count as not done).
 */
export async function readCoverage(deps: AccessDeps, actor: Actor, request: CoverageRequest): Promise<Coverage> {
  const figures = await coverageOf(deps.db, actor.tenantId, await scopeOf(deps, actor, request));
  const issuesDoneCount = figures.issueIds.length === 0 ? 0 : (await doneIssuesOf(deps, actor, figures.issueIds)).size;
  return { requirements: figures.requirements, with_issues: figures.with_issues, issues_done: issuesDoneCount, levels: figures.levels };
}

async function doneIssuesOf(deps: ServiceDeps<"hostClient" | "logger">, actor: Actor, issueIds: readonly string[]): Promise<Set<string>> {
  const reading = (async () => {
    const browsable = await issuesUserMayBrowse(deps, actor, issueIds);
    return browsable.size === 0 ? browsable : issuesDone(deps.hostClient, actor.tenantId, [...browsable]);
  })();
  return askedOrUnavailable(deps, actor, "which linked issues are done", reading);
}

/** One page of the requirements behind a figure: those without a linked issue, or without a linked requirement of the next level. */
export async function readUncovered(
  deps: AccessDeps,
  actor: Actor,
  request: CoverageRequest & { uncovered: Uncovered; offset: number; limit: number },
): Promise<UncoveredRequirements> {
  const page = await uncoveredRequirements(deps.db, actor.tenantId, await scopeOf(deps, actor, request), request.uncovered, request);
  return { requirements: page.rows, total: page.total };
}
