import type { RequirementSnapshot, RevisionAction } from "../../common/schemas/requirement.js";
import type { Db } from "./knex.js";

export type NewRevision = {
  requirementId: number;
  revision: number;
  accountId: string;
  action: RevisionAction;
  changedFields: string[];
  snapshot: RequirementSnapshot;
};

export type RevisionRow = {
  requirement_id: number;
  revision: number;
  account_id: string;
  action: RevisionAction;
  changed_fields: string[];
  created_at: Date;
};

export async function insertRevisions(db: Db, tenantId: string, revisions: NewRevision[]): Promise<void> {
  if (revisions.length === 0) return;
  for (let start = 0; start < revisions.length; start += 1000) {
    await db("requirement_revisions").insert(
      revisions.slice(start, start + 1000).map((revision) => ({
        tenant_id: tenantId,
        requirement_id: revision.requirementId,
        revision: revision.revision,
        account_id: revision.accountId,
        action: revision.action,
        changed_fields: revision.changedFields,
        snapshot: JSON.stringify(revision.snapshot),
      })),
    );
  }
}

/** Newest first. Deleted requirements keep theirs. */
export async function listRevisions(db: Db, tenantId: string, requirementId: number): Promise<RevisionRow[]> {
  const rows = await db("requirement_revisions")
    .where({ tenant_id: tenantId, requirement_id: requirementId })
    .orderBy("revision", "desc")
    .select("requirement_id", "revision", "account_id", "action", "changed_fields", "created_at");
  return rows.map((row) => ({
    requirement_id: Number(row.requirement_id),
    revision: Number(row.revision),
    account_id: String(row.account_id),
    action: row.action as RevisionAction,
    changed_fields: Array.isArray(row.changed_fields) ? row.changed_fields.map(String) : [],
    created_at: new Date(row.created_at),
  }));
}
