import type { Db } from "./knex.js";
import { withRequirementTypes } from "./requirementRows.js";

/** A live requirement as the link use cases need it: enough to scope, label and revise it. */
export type LinkableRequirement = {
  requirementId: number;
  projectId: number;
  name: string;
  displayId: string | null;
  prefix: string;
  statusId: string | null;
  assignedTo: string | null;
  revision: number;
};

function toLinkable(row: Record<string, unknown>): LinkableRequirement {
  return {
    requirementId: Number(row.requirement_id),
    projectId: Number(row.project_id),
    name: String(row.name),
    displayId: (row.display_id as string | null) ?? null,
    prefix: String(row.prefix ?? ""),
    statusId: (row.status_id as string | null) ?? null,
    assignedTo: (row.assigned_to as string | null) ?? null,
    revision: Number(row.revision),
  };
}

function linkableRequirements(db: Db, tenantId: string) {
  return withRequirementTypes(db, tenantId)
    .from("requirements as r")
    .join("t", "t.requirement_type_id", "r.requirement_type_id")
    .where("r.tenant_id", tenantId)
    .whereNull("r.deleted_at")
    .select(
      "r.requirement_id",
      "r.project_id",
      "r.name",
      "r.display_id",
      "t.prefix",
      "r.status_id",
      "r.assigned_to",
      "r.revision",
    );
}

/**
 * Live requirements by id, locked for update: a link change revises each of them, and two
 * concurrent link saves must not both write the same revision number.
 */
export async function lockRequirements(db: Db, tenantId: string, requirementIds: number[]): Promise<LinkableRequirement[]> {
  if (requirementIds.length === 0) return [];
  const rows = await linkableRequirements(db, tenantId)
    .whereIn("r.requirement_id", requirementIds)
    .orderBy("r.requirement_id")
    .forUpdate("r");
  return rows.map(toLinkable);
}

/** Live requirements linked to the issue, in any project, locked for update. */
export async function lockRequirementsLinkedToIssue(db: Db, tenantId: string, issueId: string): Promise<LinkableRequirement[]> {
  const rows = await linkableRequirements(db, tenantId)
    .whereIn(
      "r.requirement_id",
      db("requirement_issue_links").where({ tenant_id: tenantId, atlassian_issue_id: issueId }).select("requirement_id"),
    )
    .orderBy("r.requirement_id")
    .forUpdate("r");
  return rows.map(toLinkable);
}

/** Issue ids linked to each requirement, in link order; every asked id has an entry. */
export async function issueIdsOfRequirements(
  db: Db,
  tenantId: string,
  requirementIds: number[],
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>(requirementIds.map((id) => [id, []]));
  if (requirementIds.length === 0) return result;
  const rows = await db("requirement_issue_links")
    .where("tenant_id", tenantId)
    .whereIn("requirement_id", requirementIds)
    .orderBy(["requirement_id", "created_at", "atlassian_issue_id"])
    .select("requirement_id", "atlassian_issue_id");
  for (const row of rows) result.get(Number(row.requirement_id))?.push(String(row.atlassian_issue_id));
  return result;
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
