import type { Db } from "./knex.js";
import { HAS_SUSPECT_LINKS, ISSUE_LINK_SUSPECT } from "./suspectLinkStore.js";

/** A window of the matrix: `limit` rows from `offset`, of the rows whose label holds every word. */
export type MatrixWindow = { offset: number; limit: number; words: readonly string[]; suspect?: boolean };

/**
 * The requirement's label as common/labels.ts writes it ("SYS-12: Name"), lower-cased, for the
 * matrix filter: the words are matched here, so a filter costs one pass over the project and
 * sends only the window.
 */
const LABEL_SQL = `lower(CASE WHEN t.prefix <> '' THEN t.prefix || '-' ELSE '' END
  || COALESCE(NULLIF(btrim(r.display_id), ''), r.requirement_id::text) || ': ' || r.name)`;
/** The label after the type's prefix, as requirements_matrix_label (migration 0028) indexes it by trigrams. */
const OWN_LABEL_SQL = `lower(COALESCE(NULLIF(btrim(r.display_id), ''), r.requirement_id::text) || ': ' || r.name)`;
/** Rows a filter may find for its index lookup to beat reading the project in id order (measured at 100,000, docs/decisions.md). */
const FEW_ROWS = 1000;
/** Words shorter than a trigram find nothing in the index: the label's own test alone keeps them. */
const INDEXED_WORD_LENGTH = 3;

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * What a word of the filter needs of a requirement, in terms the trigram index serves: the word is
 * in the label's own part, or it is in the type's label prefix ("sys-"), or it starts in that
 * prefix and goes on at the start of the own part ("sys-12" of SYS: the own part starts with
 * "12"). The site's types are few, so each is tried here. Implied by the label holding the word,
 * which is still tested as it was: this only lets PostgreSQL find the candidates by index.
 */
function wordCandidates(
  word: string,
  types: readonly { requirement_type_id: number; prefix: string }[],
): { sql: string; bindings: (string | number)[] } {
  const terms = [`${OWN_LABEL_SQL} LIKE ?`];
  const bindings: (string | number)[] = [`%${likeEscaped(word)}%`];
  const wholeTypes: number[] = [];
  for (const type of types) {
    if (type.prefix === "") continue;
    const prefix = `${type.prefix}-`;
    if (prefix.includes(word)) {
      wholeTypes.push(type.requirement_type_id);
      continue;
    }
    for (let start = 1; start <= prefix.length; start += 1) {
      const inPrefix = prefix.slice(prefix.length - start);
      if (!word.startsWith(inPrefix)) continue;
      terms.push(`(r.requirement_type_id = ? AND ${OWN_LABEL_SQL} LIKE ?)`);
      bindings.push(type.requirement_type_id, `${likeEscaped(word.slice(inPrefix.length))}%`);
    }
  }
  if (wholeTypes.length > 0) {
    terms.push(`r.requirement_type_id IN (${wholeTypes.map(() => "?").join(", ")})`);
    bindings.push(...wholeTypes);
  }
  return { sql: `(${terms.join(" OR ")})`, bindings };
}

/**
 * One window of a project's matrix rows as JSON text, and how many rows the filter leaves, built
 * by PostgreSQL in one statement: the window is a walk of the requirements_in_project index from
 * `offset`, and only its rows' links are read (from the primary key of requirement_issue_links).
 * The API sends the text as it comes, so a window costs one query and no parse/serialise round.
 */
export async function matrixWindowJson(
  db: Db,
  tenantId: string,
  projectId: number,
  window: MatrixWindow,
): Promise<{ rows: string; totalRows: number }> {
  // Without words neither the count nor the window's ids need more than requirements_in_project
  // (index-only); the columns are read for the window's rows alone, by primary key.
  const suspect = window.suspect ? ` AND ${HAS_SUSPECT_LINKS}` : "";
  const matchingOf = (candidates: { sql: string; bindings: (string | number)[] }[]) => ({
    sql:
      window.words.length === 0
        ? `FROM requirements r WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL${suspect}`
        : `FROM requirements r
         JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
         WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL${suspect}${candidates.map((candidate) => ` AND ${candidate.sql}`).join("")}${window.words.map(() => ` AND strpos(${LABEL_SQL}, ?) > 0`).join("")}`,
    bindings: [tenantId, projectId, ...candidates.flatMap((candidate) => candidate.bindings), ...window.words],
  });
  const matching = matchingOf([]);
  // The rows of a filter are counted and the window's ids found by one of two ways: a filter with
  // words long enough for a trigram is looked up in requirements_matrix_label, and when that
  // finds few rows, their ids are the answer (sorted here); a word most labels hold is answered
  // faster by reading the project in id order, where the window's rows come first.
  let found: number[] | undefined;
  const indexed = window.words.filter((word) => word.length >= INDEXED_WORD_LENGTH);
  if (indexed.length > 0) {
    const types = await listTypePrefixes(db, tenantId);
    const lookup = matchingOf(indexed.map((word) => wordCandidates(word, types)));
    const { rows } = await db.raw(`SELECT r.requirement_id ${lookup.sql} LIMIT ?`, [...lookup.bindings, FEW_ROWS + 1]);
    if (rows.length <= FEW_ROWS)
      found = rows.map((row: { requirement_id: string | number }) => Number(row.requirement_id)).sort((a: number, b: number) => a - b);
  }
  const [counted, windowIds] = found
    ? [
        { sql: "?::bigint", bindings: [found.length] },
        { sql: "SELECT unnest(?::bigint[]) AS requirement_id", bindings: [found.slice(window.offset, window.offset + window.limit)] },
      ]
    : [
        { sql: `SELECT count(*) ${matching.sql}`, bindings: matching.bindings },
        {
          sql: `SELECT r.requirement_id ${matching.sql} ORDER BY r.requirement_id OFFSET ? LIMIT ?`,
          bindings: [...matching.bindings, window.offset, window.limit],
        },
      ];
  const result = await db.raw(
    `SELECT (${counted.sql}) AS total_rows,
       (SELECT COALESCE(json_agg(json_build_object(
          'requirements', json_build_array(json_build_object(
            'requirement_id', r.requirement_id,
            'display_id', r.display_id,
            'prefix', t.prefix,
            'name', r.name,
            'requirement_type_id', r.requirement_type_id)),
          'issues', COALESCE(l.issues, '[]'::json),
          'has_suspect_links', ${HAS_SUSPECT_LINKS}
        ) ORDER BY r.requirement_id), '[]'::json)::text
        FROM (${windowIds.sql}) w
        JOIN requirements r ON r.tenant_id = ? AND r.requirement_id = w.requirement_id
        JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
        LEFT JOIN LATERAL (
          SELECT json_agg(json_build_object('atlassian_issue_id', il.atlassian_issue_id, 'suspect', ${ISSUE_LINK_SUSPECT})
                          ORDER BY il.created_at, il.atlassian_issue_id) AS issues
          FROM requirement_issue_links il
          WHERE il.tenant_id = r.tenant_id AND il.requirement_id = r.requirement_id
        ) l ON true) AS rows`,
    [...counted.bindings, ...windowIds.bindings, tenantId],
  );
  const row = (result.rows as { total_rows: string | number; rows: string }[])[0];
  return { rows: String(row?.rows ?? "[]"), totalRows: Number(row?.total_rows ?? 0) };
}

/** The site's types (deleted ones too: their requirements may still be asked for) with their prefixes lower-cased as the label is. */
async function listTypePrefixes(db: Db, tenantId: string): Promise<{ requirement_type_id: number; prefix: string }[]> {
  const rows = await db("requirement_types")
    .where({ tenant_id: tenantId })
    .select("requirement_type_id", db.raw("lower(prefix) AS prefix"));
  return rows.map((row) => ({ requirement_type_id: Number(row.requirement_type_id), prefix: String(row.prefix) }));
}

export async function countMatrixRows(db: Db, tenantId: string, projectId: number): Promise<number> {
  const row = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .count<{ count: string | number }[]>("* as count")
    .first();
  return Number(row?.count ?? 0);
}

/** A matrix row as the export writes it. */
export type ExportRow = {
  requirementId: number;
  displayId: string | null;
  prefix: string;
  name: string;
  typeName: string;
  issueIds: string[];
  /** Of its issue links, those suspect (issue 34). */
  suspectIssueIds: string[];
  hasSuspectLinks: boolean;
};

/**
 * The next `limit` rows after `afterRequirementId`, in requirement id order: the export walks
 * the project page by page (keyset), so its memory does not grow with the project.
 */
export async function matrixRowsPage(
  db: Db,
  tenantId: string,
  projectId: number,
  afterRequirementId: number,
  limit: number,
): Promise<ExportRow[]> {
  const result = await db.raw(
    `SELECT r.requirement_id, r.display_id, t.prefix, r.name, t.name AS type_name,
            COALESCE(l.issue_ids, '{}') AS issue_ids, COALESCE(l.suspect_issue_ids, '{}') AS suspect_issue_ids,
            ${HAS_SUSPECT_LINKS} AS has_suspect_links
     FROM requirements r
     JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
     LEFT JOIN LATERAL (
       SELECT array_agg(il.atlassian_issue_id ORDER BY il.created_at, il.atlassian_issue_id) AS issue_ids,
         array_agg(il.atlassian_issue_id) FILTER (WHERE ${ISSUE_LINK_SUSPECT}) AS suspect_issue_ids
       FROM requirement_issue_links il
       WHERE il.tenant_id = r.tenant_id AND il.requirement_id = r.requirement_id
     ) l ON true
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL AND r.requirement_id > ?
     ORDER BY r.requirement_id
     LIMIT ?`,
    [tenantId, projectId, afterRequirementId, limit],
  );
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    requirementId: Number(row.requirement_id),
    displayId: (row.display_id as string | null) ?? null,
    prefix: String(row.prefix),
    name: String(row.name),
    typeName: String(row.type_name),
    issueIds: (row.issue_ids as string[]).map(String),
    suspectIssueIds: (row.suspect_issue_ids as string[]).map(String),
    hasSuspectLinks: row.has_suspect_links === true,
  }));
}
