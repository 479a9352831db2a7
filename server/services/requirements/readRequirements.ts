import { type PageFields, type PageQuery, pageOf } from "../../../common/schemas/paging.js";
import { requirementIdLabel } from "../../../common/labels.js";
import type { RequirementDetail, RequirementLite, Revision } from "../../../common/schemas/requirement.js";
import {
  findRequirementDetail,
  findRequirementDetails,
  type ListPage,
  listRequirements,
  listRevisions,
  type RequirementFilter,
  type RevisionRow,
} from "../../db/requirements/index.js";
import { listSuspectReviews } from "../../db/suspectLinkStore.js";
import { withReviews } from "../suspectLinks/suspectLinks.js";
import { notFound } from "../../errors.js";
import { type AccessDeps, browsableOf, browsableProjectIds, requireProjectAccess } from "../access/projectAccess.js";
import { withHiddenLinksRestricted } from "../access/restrictedRequirements.js";
import type { Actor, ServiceDeps } from "../context.js";
import { toDetail, toLite } from "./requirementViews.js";

/**
 * One requirement, answered as missing when the person may not browse its project; linked ones of
 * hidden projects shown restricted. The project is checked on the row read anyway, not by a read
 * of its project before it: the detail is the hottest read, and that read was one statement more
 * per request, outside the batch the details share.
 */
export async function getRequirement(
  deps: ServiceDeps<"config"> & AccessDeps,
  actor: Actor,
  requirementId: number,
): Promise<RequirementDetail> {
  const row = deps.config.detailReadBatching
    ? await findRequirementDetail(deps.db, actor.tenantId, requirementId)
    : (await findRequirementDetails(deps.db, actor.tenantId, [requirementId]))[0];
  if (!row) throw notFound("Requirement");
  const detail = toDetail(row);
  await requireProjectAccess(deps, actor, detail.project, "browse", "Requirement");
  const [linked] = await withHiddenLinksRestricted(deps, actor, [detail.linked_requirements_v2]);
  return { ...detail, linked_requirements_v2: linked ?? [] };
}

/**
 * The filter cut to projects the person may browse: those it names, or all of the site's when it
 * names none; lists leave the others out. Undefined when none is left.
 */
async function browsableFilter(deps: AccessDeps, actor: Actor, filter: RequirementFilter): Promise<RequirementFilter | undefined> {
  const projectIds = filter.projectIds ? await browsableOf(deps, actor, filter.projectIds) : await browsableProjectIds(deps, actor);
  return projectIds.length === 0 ? undefined : { ...filter, projectIds };
}

/** The named requirements (a bounded list: the ids are the bound). */
export async function listRequirementLitesById(
  deps: AccessDeps,
  actor: Actor,
  requirementIds: number[],
  options: { withDescription: boolean },
): Promise<RequirementLite[]> {
  const filter = requirementIds.length === 0 ? undefined : await browsableFilter(deps, actor, { requirementIds });
  if (!filter) return [];
  return (await listRequirements(deps.db, actor.tenantId, filter)).map((row) => toLite(row, options));
}

export type RequirementLitePage = { requirements: RequirementLite[]; offset: number; limit: number; has_more: boolean };

/** One page of the requirements matching the filter; one row more is read to tell whether another page follows. */
export async function listRequirementLites(
  deps: AccessDeps,
  actor: Actor,
  asked: RequirementFilter,
  options: ListPage & { withDescription: boolean },
): Promise<RequirementLitePage> {
  const filter = await browsableFilter(deps, actor, asked);
  const rows = filter ? await listRequirements(deps.db, actor.tenantId, filter, { offset: options.offset, limit: options.limit + 1 }) : [];
  return {
    requirements: rows.slice(0, options.limit).map((row) => toLite(row, options)),
    offset: options.offset,
    limit: options.limit,
    has_more: rows.length > options.limit,
  };
}

/**
 * The Activity list, a page at a time, with the reviews of suspect links among the revisions: a page
 * holds the reviews made at its revisions (the last page also any older). A deleted requirement's
 * history stays readable.
 */
export async function listRequirementRevisions(
  deps: ServiceDeps,
  actor: Actor,
  requirementId: number,
  page: PageQuery,
): Promise<{ revisions: Revision[] } & PageFields> {
  // Every requirement has its 'created' revision: none at all means no such requirement.
  const rows = await listRevisions(deps.db, actor.tenantId, requirementId, page);
  if (rows.length === 0 && (await listRevisions(deps.db, actor.tenantId, requirementId, { offset: 0, limit: 0 })).length === 0) {
    throw notFound("Requirement");
  }
  const { items, ...paging } = pageOf(rows, page);
  const newest = items[0]?.revision;
  const oldest = items.at(-1)?.revision;
  const reviews =
    newest === undefined || oldest === undefined
      ? []
      : await listSuspectReviews(deps.db, actor.tenantId, requirementId, {
          from: paging.has_more ? oldest : undefined,
          to: page.offset === 0 ? undefined : newest,
        });
  return { revisions: withReviews(items.map(toRevision), reviews), ...paging };
}

function toRevision(revision: RevisionRow): Revision {
  return {
    revision: revision.revision,
    created_at: revision.created_at.toISOString(),
    account_id: revision.account_id,
    action: revision.action,
    changed_fields: revision.changed_fields.join(","),
  };
}

/** POST /api/requirement/display_ids: requirement id to the ID label ("SYS-12"); unknown or deleted ids are left out. */
export async function requirementDisplayIds(deps: AccessDeps, actor: Actor, requirementIds: number[]): Promise<Record<string, string>> {
  const filter =
    requirementIds.length === 0 ? undefined : await browsableFilter(deps, actor, { requirementIds: [...new Set(requirementIds)] });
  if (!filter) return {};
  const rows = await listRequirements(deps.db, actor.tenantId, filter);
  return Object.fromEntries(rows.map((row) => [String(row.requirement_id), requirementIdLabel(row)]));
}
