/**
 * The requirement search (migration 0021's indexes): by ID, by words of the name and description
 * (`search_document`), by words of custom-field text. Ranked in the database, at most `limit` rows.
 */
import type { Db } from "../knex.js";

/** What the search looks for, already parsed from the typed text (services/requirements/searchTerms.ts). */
export type SearchTerms = {
  /** The typed text, lower case, as a requirement's own ID would read: its custom ID, else its number. */
  id: string | null;
  /** Typed after a type's prefix ("SYS-12" → types with prefix SYS, "12"); `rest` may be empty ("SYS-"). */
  prefixed: { typeIds: number[]; rest: string }[];
  /** A tsquery of every word as a prefix ("brak:* & dist:*"), null when there are no words. */
  words: string | null;
};

export type SearchScope = {
  /** Only these projects (0 = Global Requirements); undefined: the whole site. */
  projectIds?: number[];
  /** Only requirements of these types; undefined: every type. */
  typeIds?: number[];
};

/** How the requirement was found, best first: the search answers the better tiers first. */
export const SEARCH_TIERS = { exactId: 4, idPrefix: 3, idPart: 2, words: 1, field: 0 } as const;

export type SearchHitRow = {
  requirement_id: number;
  project_id: number;
  parent_folder_id: number | null;
  requirement_type_id: number;
  display_id: string | null;
  name: string;
  tier: number | null;
  /** The text with the found words between \u0001 and \u0002 (ts_headline); null when none is in it. */
  name_marked: string | null;
  description_marked: string | null;
  field: { attribute_id: number; name: string; value_marked: string } | null;
};

/** ts_headline's markers around a found word: characters no name or description holds. */
export const MATCH_START = "\u0001";
export const MATCH_END = "\u0002";
const WHOLE = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", HighlightAll=true`;
const PASSAGE = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxFragments=2, MaxWords=18, MinWords=6, FragmentDelimiter=" … "`;

/** The ID the trigram index holds (0021): the same expression, or the index is not used. */
const ID_TEXT = "lower(coalesce(r.display_id, r.requirement_id::text))";

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

type Sql = { text: string; bindings: unknown[] };
const sql = (text: string, ...bindings: unknown[]): Sql => ({ text, bindings });
const join = (parts: Sql[], separator: string): Sql => ({
  text: parts.map((part) => part.text).join(separator),
  bindings: parts.flatMap((part) => part.bindings),
});

/**
 * The best `limit` requirements of the scope for the terms, best first: an exact ID, then IDs that
 * start with the text, then IDs holding it, then words (ranked by ts_rank: name words weigh more
 * than description words), then custom-field words. Each way of finding is its own index scan that
 * keeps only its best `limit` rows, so no way reads more than its matches. No terms at all: the
 * scope's first requirements by id (a picker's first page before anything is typed).
 */
export async function searchRequirements(
  db: Db,
  tenantId: string,
  scope: SearchScope,
  terms: SearchTerms,
  limit: number,
): Promise<SearchHitRow[]> {
  const inScope = join(
    [
      sql("r.tenant_id = ? AND r.deleted_at IS NULL", tenantId),
      ...(scope.projectIds ? [projectCondition(scope.projectIds)] : []),
      ...(scope.typeIds ? [sql(`r.requirement_type_id IN (${placeholders(scope.typeIds)})`, ...scope.typeIds)] : []),
    ],
    " AND ",
  );
  const ways: Sql[] = [];
  if (terms.id !== null) {
    const id = likeEscaped(terms.id);
    // Trigrams need three characters: a shorter text is found at the start of IDs only.
    const pattern = terms.id.length >= 3 ? `%${id}%` : `${id}%`;
    ways.push(
      sql(
        `SELECT * FROM (SELECT r.requirement_id,
           CASE WHEN ${ID_TEXT} = ? THEN ${SEARCH_TIERS.exactId} WHEN ${ID_TEXT} LIKE ? THEN ${SEARCH_TIERS.idPrefix} ELSE ${SEARCH_TIERS.idPart} END AS tier,
           0::real AS rank, length(${ID_TEXT}) AS id_length
         FROM requirements r WHERE ${inScope.text} AND ${ID_TEXT} LIKE ?
         ORDER BY tier DESC, id_length, r.requirement_id LIMIT ?) id_hits`,
        terms.id,
        `${id}%`,
        ...inScope.bindings,
        pattern,
        limit,
      ),
    );
  }
  for (const { typeIds, rest } of terms.prefixed) {
    ways.push(
      sql(
        `SELECT * FROM (SELECT r.requirement_id,
           CASE WHEN ${ID_TEXT} = ? THEN ${SEARCH_TIERS.exactId} ELSE ${rest === "" ? SEARCH_TIERS.idPart : SEARCH_TIERS.idPrefix} END AS tier,
           0::real AS rank, length(${ID_TEXT}) AS id_length
         FROM requirements r WHERE ${inScope.text} AND r.requirement_type_id IN (${placeholders(typeIds)}) AND ${ID_TEXT} LIKE ?
         ORDER BY tier DESC, id_length, r.requirement_id LIMIT ?) prefixed_hits`,
        rest,
        ...inScope.bindings,
        ...typeIds,
        `${likeEscaped(rest)}%`,
        limit,
      ),
    );
  }
  if (terms.words !== null) {
    ways.push(
      sql(
        `SELECT * FROM (SELECT r.requirement_id, ${SEARCH_TIERS.words} AS tier, ts_rank(r.search_document, to_tsquery('simple', ?)) AS rank, 0 AS id_length
         FROM requirements r WHERE ${inScope.text} AND r.search_document @@ to_tsquery('simple', ?)
         ORDER BY rank DESC, r.requirement_id LIMIT ?) word_hits`,
        terms.words,
        ...inScope.bindings,
        terms.words,
        limit,
      ),
      sql(
        `SELECT * FROM (SELECT DISTINCT r.requirement_id, ${SEARCH_TIERS.field} AS tier, 0::real AS rank, 0 AS id_length
         FROM field_matches v JOIN requirements r ON r.tenant_id = ? AND r.requirement_id = v.requirement_id
         WHERE ${inScope.text} ORDER BY r.requirement_id LIMIT ?) field_hits`,
        tenantId,
        ...inScope.bindings,
        limit,
      ),
    );
  }
  if (ways.length === 0) {
    ways.push(
      sql(
        `SELECT * FROM (SELECT r.requirement_id, NULL::int AS tier, 0::real AS rank, 0 AS id_length
         FROM requirements r WHERE ${inScope.text} ORDER BY r.requirement_id LIMIT ?) first_requirements`,
        ...inScope.bindings,
        limit,
      ),
    );
  }
  const hits = join(ways, " UNION ALL ");
  // The values holding the words, read through their index first: asked in id order, PostgreSQL
  // walked the values' primary key instead and parsed every value of every site (0.35 s at 100,000).
  const fieldMatches =
    terms.words === null
      ? sql("")
      : sql(
          `field_matches AS MATERIALIZED (
             SELECT v.requirement_id FROM requirement_attribute_values v
             JOIN attributes a ON a.tenant_id = v.tenant_id AND a.attribute_id = v.attribute_id AND a.type = 'string'
             WHERE v.tenant_id = ? AND to_tsvector('simple', v.value) @@ to_tsquery('simple', ?)
           ),`,
          tenantId,
          terms.words,
        );
  const query = sql(
    `WITH ${fieldMatches.text} hits AS (${hits.text}),
     best AS (
       SELECT requirement_id, max(tier) AS tier, max(rank) AS rank, min(id_length) AS id_length FROM hits
       GROUP BY requirement_id ORDER BY max(tier) DESC NULLS LAST, max(rank) DESC, min(id_length), requirement_id LIMIT ?
     )
     SELECT r.requirement_id, r.project_id, r.parent_folder_id, r.requirement_type_id, r.display_id, r.name, best.tier,
       ts_headline('simple', r.name, to_tsquery('simple', ?::text), ?) AS name_marked,
       ts_headline('simple', r.description, to_tsquery('simple', ?::text), ?) AS description_marked,
       field.attribute_id AS field_attribute_id, field.name AS field_name, field.value_marked AS field_value_marked
     FROM best
     JOIN requirements r ON r.tenant_id = ? AND r.requirement_id = best.requirement_id
     LEFT JOIN LATERAL (
       SELECT a.attribute_id, a.name, ts_headline('simple', v.value, to_tsquery('simple', ?::text), ?) AS value_marked
       FROM requirement_attribute_values v
       JOIN attributes a ON a.tenant_id = v.tenant_id AND a.attribute_id = v.attribute_id AND a.type = 'string'
       WHERE best.tier = ${SEARCH_TIERS.field} AND v.tenant_id = r.tenant_id AND v.requirement_id = r.requirement_id
         AND to_tsvector('simple', v.value) @@ to_tsquery('simple', ?::text)
       ORDER BY a.attribute_id LIMIT 1
     ) field ON true
     ORDER BY best.tier DESC NULLS LAST, best.rank DESC, best.id_length, r.requirement_id`,
    ...fieldMatches.bindings,
    ...hits.bindings,
    limit,
    terms.words,
    WHOLE,
    terms.words,
    PASSAGE,
    tenantId,
    terms.words,
    WHOLE,
    terms.words,
  );
  const { rows } = await db.raw<{ rows: Record<string, unknown>[] }>(query.text, query.bindings as never[]);
  return rows.map(toHitRow);
}

/** One project as an equality the site-and-project index can use; several as a list. */
function projectCondition(projectIds: number[]): Sql {
  if (projectIds.length === 0) return sql("false");
  if (projectIds.length === 1) return sql("r.project_id = ?", projectIds[0]);
  return sql(`r.project_id IN (${placeholders(projectIds)})`, ...projectIds);
}

const placeholders = (values: unknown[]) => (values.length === 0 ? "NULL" : values.map(() => "?").join(", "));

const marked = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const text = String(value);
  return text.includes(MATCH_START) ? text : null;
};

const toHitRow = (row: Record<string, unknown>): SearchHitRow => ({
  requirement_id: Number(row.requirement_id),
  project_id: Number(row.project_id),
  parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
  requirement_type_id: Number(row.requirement_type_id),
  display_id: row.display_id === null ? null : String(row.display_id),
  name: String(row.name),
  tier: row.tier === null ? null : Number(row.tier),
  name_marked: marked(row.name_marked),
  description_marked: marked(row.description_marked),
  field:
    row.field_attribute_id === null || row.field_attribute_id === undefined
      ? null
      : {
          attribute_id: Number(row.field_attribute_id),
          name: String(row.field_name),
          value_marked: String(row.field_value_marked),
        },
});
