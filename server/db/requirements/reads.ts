/** Requirements without their relations: pickers and filters by project, issue or page. */
import type { Db } from "../knex.js";
import { type RequirementRow, selectRequirements, toRow } from "./rows.js";
import { HAS_SUSPECT_LINKS } from "../suspectLinkStore.js";

export type RequirementFilter = {
  projectIds?: number[];
  issueId?: string;
  contentId?: string;
  requirementIds?: number[];
  /** Only requirements with a suspect link (issue 34). */
  suspect?: boolean;
};

/**
 * A listed requirement: whether any of its links is suspect, and with an issue filter, whether
 * its link to that issue is.
 */
export type RequirementListRow = RequirementRow & { has_suspect_links: boolean; issue_link_suspect?: boolean };

/** A page of a list: `limit` rows after the first `offset`. */
export type ListPage = { offset: number; limit: number };

/** Active requirements matching every given filter, by project and id; a page of them when `page` is given. */
export async function listRequirements(
  db: Db,
  tenantId: string,
  filter: RequirementFilter,
  page?: ListPage,
): Promise<RequirementListRow[]> {
  const query = selectRequirements(db, tenantId).select(db.raw(`${HAS_SUSPECT_LINKS} AS has_suspect_links`));
  if (filter.projectIds) query.whereIn("r.project_id", filter.projectIds);
  if (filter.requirementIds) query.whereIn("r.requirement_id", filter.requirementIds);
  if (filter.issueId !== undefined) {
    query.whereExists(
      db("requirement_issue_links as i")
        .whereRaw("i.tenant_id = r.tenant_id AND i.requirement_id = r.requirement_id")
        .where("i.atlassian_issue_id", filter.issueId)
        .select(db.raw("1")),
    );
    query.select(
      db.raw(
        "EXISTS (SELECT 1 FROM suspect_issue_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id AND x.atlassian_issue_id = ?) AS issue_link_suspect",
        [filter.issueId],
      ),
    );
  }
  if (filter.suspect) query.whereRaw(HAS_SUSPECT_LINKS);
  if (filter.contentId !== undefined) {
    query.whereExists(
      db("requirement_content_links as c")
        .whereRaw("c.tenant_id = r.tenant_id AND c.requirement_id = r.requirement_id")
        .where("c.atlassian_content_id", filter.contentId)
        .select(db.raw("1")),
    );
  }
  query.orderBy([{ column: "r.project_id" }, { column: "r.requirement_id" }]);
  if (page) query.offset(page.offset).limit(page.limit);
  const rows: Record<string, unknown>[] = await query;
  return rows.map((row) => ({
    ...toRow(row),
    has_suspect_links: row.has_suspect_links === true,
    ...(row.issue_link_suspect === undefined ? {} : { issue_link_suspect: row.issue_link_suspect === true }),
  }));
}

export async function findRequirements(
  db: Db,
  tenantId: string,
  requirementIds: number[],
  options: { includeDeleted?: boolean } = {},
): Promise<RequirementRow[]> {
  if (requirementIds.length === 0) return [];
  const query = selectRequirements(db, tenantId, options).whereIn("r.requirement_id", requirementIds).orderBy("r.requirement_id");
  return (await query).map(toRow);
}
