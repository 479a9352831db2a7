/**
 * Suspect links (issue 34): marks on links whose requirement changed since the link was last
 * reviewed, in three tables keyed as the links they mark (migration 0025). A requirement link's
 * mark is stored once per pair, lower id first, and read from either end.
 */
import type { SuspectLinkType } from "../../common/schemas/suspectLinks.js";
import type { Db, Tx } from "./knex.js";

/** A requirement whose change makes its links suspect, and which of its links the change finds. */
export type SuspectCause = {
  requirementId: number;
  revision: number;
  linkedRequirementIds: number[];
  issueIds: string[];
  contentIds: string[];
};

/** One link of a requirement, named from that requirement's side. */
export type LinkRef = { link_type: SuspectLinkType; target_id: string };

/** One mark as a requirement's detail lists it, plus which end's change made it. */
export type SuspectLinkRow = LinkRef & {
  since_revision: number;
  changed_by: string;
  changed_at: Date;
  changed_requirement_id: number;
};

/** Every mark of the requirement row `r`'s links, named from its side: each table read by its primary key or its index on the higher end. */
const MARKS_OF_R = `(
    SELECT 'requirement' AS link_type, x.linked_requirement_id::text AS target_id, x.since_revision, x.changed_by, x.changed_at, x.changed_requirement_id
      FROM suspect_requirement_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id
    UNION ALL
    SELECT 'requirement', x.requirement_id::text, x.since_revision, x.changed_by, x.changed_at, x.changed_requirement_id
      FROM suspect_requirement_links x WHERE x.tenant_id = r.tenant_id AND x.linked_requirement_id = r.requirement_id
    UNION ALL
    SELECT 'issue', x.atlassian_issue_id, x.since_revision, x.changed_by, x.changed_at, x.requirement_id
      FROM suspect_issue_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id
    UNION ALL
    SELECT 'content', x.atlassian_content_id, x.since_revision, x.changed_by, x.changed_at, x.requirement_id
      FROM suspect_content_links x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id
  ) s`;

/** The marks of the requirement row `r`'s links as one json column (the detail statement's). */
export const SUSPECT_LINKS_JSON = `(SELECT json_agg(json_build_object('link_type', s.link_type, 'target_id', s.target_id,
    'since_revision', s.since_revision, 'changed_by', s.changed_by, 'changed_at', s.changed_at,
    'changed_requirement_id', s.changed_requirement_id) ORDER BY s.link_type, s.target_id) FROM ${MARKS_OF_R}) AS suspect_links`;

/**
 * Whether the requirement row `r` has any suspect link: four index probes (each table's primary
 * key, and the requirement marks' index on their higher end), never a scan. Also the filter to
 * suspect requirements: probed per requirement of the project read, so its cost follows the
 * project's size, never the site's marks. `OFFSET 0` keeps PostgreSQL from turning each EXISTS into
 * a hashed subplan, which reads every mark of every site into a hash first (EXPLAIN of a project's
 * lite list at 100,000 requirements: 40,400 issue marks and twice 20,200 requirement marks scanned
 * for 1,000 rows; probed, 4 index probes a row).
 */
const probe = (table: string, column = "requirement_id") =>
  `EXISTS (SELECT 1 FROM ${table} x WHERE x.tenant_id = r.tenant_id AND x.${column} = r.requirement_id OFFSET 0)`;
export const HAS_SUSPECT_LINKS = `(${[
  probe("suspect_issue_links"),
  probe("suspect_content_links"),
  probe("suspect_requirement_links"),
  probe("suspect_requirement_links", "linked_requirement_id"),
].join("\n  OR ")})`;

/** Whether the issue link row `il` is suspect: one probe of the marks' primary key. */
export const ISSUE_LINK_SUSPECT = `EXISTS (SELECT 1 FROM suspect_issue_links x
  WHERE x.tenant_id = il.tenant_id AND x.requirement_id = il.requirement_id AND x.atlassian_issue_id = il.atlassian_issue_id OFFSET 0)`;

/** A json column's mark, as SUSPECT_LINKS_JSON builds it. */
export function toSuspectLinkRow(value: Record<string, unknown>): SuspectLinkRow {
  return {
    link_type: value.link_type as SuspectLinkType,
    target_id: String(value.target_id),
    since_revision: Number(value.since_revision),
    changed_by: String(value.changed_by),
    changed_at: new Date(value.changed_at as string),
    changed_requirement_id: Number(value.changed_requirement_id),
  };
}

/**
 * Marks the given links of the changed requirements suspect, in three statements however many
 * requirements: only links that exist are marked, and a link already suspect keeps its mark (the
 * first change since its review is the one its reviewer must see from).
 */
export async function markLinksSuspect(tx: Tx, tenantId: string, changedBy: string, causes: SuspectCause[]): Promise<void> {
  const pairs = causes.flatMap((cause) => cause.linkedRequirementIds.map((other) => [cause, other] as const));
  if (pairs.length > 0) {
    await tx.raw(
      `INSERT INTO suspect_requirement_links (tenant_id, requirement_id, linked_requirement_id, changed_requirement_id, since_revision, changed_by, changed_at)
       SELECT l.tenant_id, l.requirement_id, l.linked_requirement_id, m.changed, m.revision, ?, now()
       FROM unnest(?::bigint[], ?::bigint[], ?::int[]) AS m(changed, other, revision)
       JOIN requirement_links l ON l.tenant_id = ? AND l.requirement_id = LEAST(m.changed, m.other) AND l.linked_requirement_id = GREATEST(m.changed, m.other)
       ON CONFLICT DO NOTHING`,
      [
        changedBy,
        pairs.map(([cause]) => cause.requirementId),
        pairs.map(([, other]) => other),
        pairs.map(([cause]) => cause.revision),
        tenantId,
      ],
    );
  }
  for (const { table, links, column, targetsOf } of HOST_LINK_TABLES) {
    const marks = causes.flatMap((cause) => targetsOf(cause).map((target) => [cause, target] as const));
    if (marks.length === 0) continue;
    await tx.raw(
      `INSERT INTO ${table} (tenant_id, requirement_id, ${column}, since_revision, changed_by, changed_at)
       SELECT l.tenant_id, l.requirement_id, l.${column}, m.revision, ?, now()
       FROM unnest(?::bigint[], ?::text[], ?::int[]) AS m(requirement_id, target, revision)
       JOIN ${links} l ON l.tenant_id = ? AND l.requirement_id = m.requirement_id AND l.${column} = m.target
       ON CONFLICT DO NOTHING`,
      [
        changedBy,
        marks.map(([cause]) => cause.requirementId),
        marks.map(([, target]) => target),
        marks.map(([cause]) => cause.revision),
        tenantId,
      ],
    );
  }
}

const HOST_LINK_TABLES = [
  {
    linkType: "issue",
    table: "suspect_issue_links",
    links: "requirement_issue_links",
    column: "atlassian_issue_id",
    targetsOf: (cause: SuspectCause) => cause.issueIds,
  },
  {
    linkType: "content",
    table: "suspect_content_links",
    links: "requirement_content_links",
    column: "atlassian_content_id",
    targetsOf: (cause: SuspectCause) => cause.contentIds,
  },
] as const;

const hostTableOf = (linkType: "issue" | "content") => HOST_LINK_TABLES.find((entry) => entry.linkType === linkType)!;

/** Whether the requirement has the link (suspect or not). */
export async function linkExists(db: Db, tenantId: string, requirementId: number, link: LinkRef): Promise<boolean> {
  if (link.link_type === "requirement") {
    const other = Number(link.target_id);
    if (!Number.isSafeInteger(other)) return false;
    const row = await db("requirement_links")
      .where({ tenant_id: tenantId, requirement_id: Math.min(requirementId, other), linked_requirement_id: Math.max(requirementId, other) })
      .first("requirement_id");
    return row !== undefined;
  }
  const { links, column } = hostTableOf(link.link_type);
  const row = await db(links)
    .where({ tenant_id: tenantId, requirement_id: requirementId, [column]: link.target_id })
    .first("requirement_id");
  return row !== undefined;
}

/**
 * Clears the marks of the requirement's given links (every link with `all`), answering those
 * cleared, each named from the requirement's side.
 */
export async function clearSuspectLinks(
  tx: Tx,
  tenantId: string,
  requirementId: number,
  links: LinkRef[] | "all",
): Promise<SuspectLinkRow[]> {
  const wanted = (type: SuspectLinkType) =>
    links === "all" ? undefined : links.filter((link) => link.link_type === type).map((link) => link.target_id);
  const cleared: SuspectLinkRow[] = [];
  const requirementTargets = wanted("requirement")?.map(Number).filter(Number.isSafeInteger);
  if (requirementTargets === undefined || requirementTargets.length > 0) {
    const rows: Record<string, unknown>[] = await tx("suspect_requirement_links")
      .where("tenant_id", tenantId)
      .where((side) =>
        side
          .where((low) => {
            low.where("requirement_id", requirementId);
            if (requirementTargets) low.whereIn("linked_requirement_id", requirementTargets);
          })
          .orWhere((high) => {
            high.where("linked_requirement_id", requirementId);
            if (requirementTargets) high.whereIn("requirement_id", requirementTargets);
          }),
      )
      .delete()
      .returning(["requirement_id", "linked_requirement_id", "changed_requirement_id", "since_revision", "changed_by", "changed_at"]);
    for (const row of rows) {
      const other = Number(row.requirement_id) === requirementId ? row.linked_requirement_id : row.requirement_id;
      cleared.push(toSuspectLinkRow({ ...row, link_type: "requirement", target_id: other }));
    }
  }
  for (const { linkType, table, column } of HOST_LINK_TABLES) {
    const targets = wanted(linkType);
    if (targets !== undefined && targets.length === 0) continue;
    const query = tx(table).where({ tenant_id: tenantId, requirement_id: requirementId });
    if (targets) query.whereIn(column, targets);
    const rows: Record<string, unknown>[] = await query
      .delete()
      .returning([column, "since_revision", "changed_by", "changed_at", "requirement_id"]);
    for (const row of rows) {
      cleared.push(toSuspectLinkRow({ ...row, link_type: linkType, target_id: row[column], changed_requirement_id: row.requirement_id }));
    }
  }
  return cleared;
}

/** One review as the Activity lists it. */
export type SuspectReviewRow = LinkRef & { requirement_id: number; revision: number; reviewed_by: string; reviewed_at: Date };

/** Records the reviews, one row per requirement whose Activity shows it (both ends of a requirement link). */
export async function insertSuspectReviews(tx: Tx, tenantId: string, reviews: Omit<SuspectReviewRow, "reviewed_at">[]): Promise<void> {
  if (reviews.length === 0) return;
  await tx("suspect_link_reviews").insert(reviews.map((review) => ({ tenant_id: tenantId, ...review })));
}

/** The requirement's reviews, newest first. */
/** Above any revision a requirement reaches (revision is an integer column). */
const MAX_REVISION = 2_147_483_647;

export async function listSuspectReviews(
  db: Db,
  tenantId: string,
  requirementId: number,
  revisions: { from?: number; to?: number },
): Promise<SuspectReviewRow[]> {
  const rows = await db("suspect_link_reviews")
    .where({ tenant_id: tenantId, requirement_id: requirementId })
    .where("revision", ">=", revisions.from ?? 0)
    .where("revision", "<=", revisions.to ?? MAX_REVISION)
    .orderBy("review_id", "desc")
    .select("requirement_id", "link_type", "target_id", "revision", "reviewed_by", "reviewed_at");
  return rows.map((row) => ({
    requirement_id: Number(row.requirement_id),
    link_type: row.link_type as SuspectLinkType,
    target_id: String(row.target_id),
    revision: Number(row.revision),
    reviewed_by: String(row.reviewed_by),
    reviewed_at: new Date(row.reviewed_at),
  }));
}

/**
 * A requirement's marks as a baseline freezes them, as one SQL expression over the requirement
 * row `r`: [{link_type, target_id, since_revision}] in a fixed order (equal states are equal
 * jsonb), or null when it has none.
 */
export const FROZEN_SUSPECT_LINKS = `(SELECT jsonb_agg(jsonb_build_object('link_type', s.link_type, 'target_id', s.target_id,
    'since_revision', s.since_revision) ORDER BY s.link_type, s.target_id) FROM ${MARKS_OF_R})`;
