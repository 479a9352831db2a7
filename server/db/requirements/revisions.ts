import type { PageQuery } from "../../../common/schemas/paging.js";
import type { RequirementSnapshot, RevisionAction } from "../../../common/schemas/requirement.js";
import type { Db } from "../knex.js";
import { asJson } from "../queryHelpers.js";

export type NewRevision = {
  requirement_id: number;
  revision: number;
  account_id: string;
  action: RevisionAction;
  changed_fields: string[];
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
        requirement_id: revision.requirement_id,
        revision: revision.revision,
        account_id: revision.account_id,
        action: revision.action,
        changed_fields: revision.changed_fields,
        snapshot: JSON.stringify(storedSnapshotOf(revision.snapshot)),
      })),
    );
  }
}

/**
 * The snapshot keys left out of a stored snapshot while they hold these values. A function, so
 * each snapshot read back gets lists of its own, not ones shared with every other.
 */
const emptyValues = () => ({
  components: [],
  issues: [],
  contents: [],
  linked_requirements: [],
  attachments: [],
  attributes: {},
  deleted: false,
});
type OmittedWhenEmpty = keyof ReturnType<typeof emptyValues>;
type DerivedKey = "requirement_id" | "prefix" | "requirement_type_id";

/**
 * A snapshot as a revision row keeps it: without what the row and the frozen type already say
 * (the requirement id, the type's id and prefix) and without the lists, attributes and flag that
 * hold their empty value. Most revisions, every imported requirement's first among them, have no
 * links, issues, pages or attachments, so a stored snapshot is about half the whole one, and the
 * import writes it in less time (bulkInsert.ts writes the same form).
 */
export type StoredSnapshot = Omit<RequirementSnapshot, DerivedKey | OmittedWhenEmpty> &
  Partial<Pick<RequirementSnapshot, OmittedWhenEmpty>>;

export function storedSnapshotOf(snapshot: RequirementSnapshot): StoredSnapshot {
  const { requirement_id: _id, prefix: _prefix, requirement_type_id: _typeId, ...kept } = snapshot;
  const empty: Record<string, unknown> = emptyValues();
  return Object.fromEntries(
    Object.entries(kept).filter(([key, value]) => !(key in empty && JSON.stringify(value) === JSON.stringify(empty[key]))),
  ) as StoredSnapshot;
}

/** The whole snapshot back from a stored one, or from one stored whole before the stored form existed. */
export function snapshotFromStored(stored: unknown, requirementId: number): RequirementSnapshot {
  const kept = asJson<StoredSnapshot>(stored, {} as StoredSnapshot);
  return {
    ...emptyValues(),
    ...kept,
    requirement_id: requirementId,
    prefix: kept.requirement_type.prefix,
    requirement_type_id: kept.requirement_type.requirement_type_id,
  };
}

/** Newest first, `limit + 1` from `offset` (the caller tells whether another page follows). Deleted requirements keep theirs. */
export async function listRevisions(db: Db, tenantId: string, requirementId: number, page: PageQuery): Promise<RevisionRow[]> {
  const rows = await db("requirement_revisions")
    .where({ tenant_id: tenantId, requirement_id: requirementId })
    .orderBy("revision", "desc")
    .offset(page.offset)
    .limit(page.limit + 1)
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

/** The snapshots of the given revisions of one requirement, by revision (missing ones left out). */
export async function findRevisionSnapshots(
  db: Db,
  tenantId: string,
  requirementId: number,
  revisions: number[],
): Promise<Map<number, RequirementSnapshot>> {
  const rows = await db("requirement_revisions")
    .where({ tenant_id: tenantId, requirement_id: requirementId })
    .whereIn("revision", revisions)
    .select("revision", "snapshot");
  return new Map(rows.map((row) => [Number(row.revision), snapshotFromStored(row.snapshot, requirementId)]));
}
