import type { Db } from "./knex.js";

/** Requirements (live or deleted) linked to the issue, in any project, by id. */
export async function requirementIdsLinkedToIssue(db: Db, tenantId: string, issueId: string): Promise<number[]> {
  const ids = await db("requirement_issue_links")
    .where({ tenant_id: tenantId, atlassian_issue_id: issueId })
    .orderBy("requirement_id")
    .pluck("requirement_id");
  return ids.map(Number);
}

/**
 * Every issue linked to a live requirement of the project, once per link (an issue linked twice
 * comes twice; the permission check takes each once): an export asks Jira which of them its user
 * may browse before it writes any row.
 */
export async function issueIdsLinkedInProject(db: Db, tenantId: string, projectId: number): Promise<string[]> {
  // Each requirement's links read by the primary key (OFFSET 0 keeps the planner from flattening
  // the lateral read into a join): joined as sets, it read every link of the site to find one
  // project's, a cost growing with the site (EXPLAIN at 100,000 requirements: 2,500 buffers for a
  // project of 1,000, now 3,013 hit in 7 ms, the same at any site size). No DISTINCT: its sort
  // spilled to disk for a project of 100,000.
  const { rows } = await db.raw(
    `SELECT il.atlassian_issue_id
     FROM requirements r
     CROSS JOIN LATERAL (
       SELECT l.atlassian_issue_id FROM requirement_issue_links l
       WHERE l.tenant_id = r.tenant_id AND l.requirement_id = r.requirement_id OFFSET 0
     ) il
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL`,
    [tenantId, projectId],
  );
  return (rows as { atlassian_issue_id: string }[]).map((row) => String(row.atlassian_issue_id));
}

export async function addIssueLinks(db: Db, tenantId: string, issueId: string, requirementIds: number[]): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirement_issue_links")
    .insert(requirementIds.map((requirementId) => ({ tenant_id: tenantId, requirement_id: requirementId, atlassian_issue_id: issueId })))
    .onConflict(["tenant_id", "requirement_id", "atlassian_issue_id"])
    .ignore();
}

export async function removeIssueLinks(db: Db, tenantId: string, issueId: string, requirementIds: number[]): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirement_issue_links")
    .where({ tenant_id: tenantId, atlassian_issue_id: issueId })
    .whereIn("requirement_id", requirementIds)
    .delete();
}

/** Every link to the issue, of requirements (deleted ones too) and of folders; returns how many went. */
export async function removeAllLinksOfIssue(db: Db, tenantId: string, issueId: string): Promise<number> {
  const where = { tenant_id: tenantId, atlassian_issue_id: issueId };
  // PGlite's knex driver answers a bare delete with its raw result, so count the returned rows.
  const requirementLinks = await db("requirement_issue_links").where(where).delete().returning("requirement_id");
  const folderLinks = await db("folder_issues").where(where).delete().returning("folder_id");
  return requirementLinks.length + folderLinks.length;
}
