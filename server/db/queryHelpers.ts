/** Query pieces the tree stores share. */
import type { Knex } from "knex";

/**
 * The top level and a set of folders in separate index scans: one query with
 * `parent IS NULL OR parent IN (...)` makes PostgreSQL read the whole project.
 */
export async function byParents(
  parentIds: (number | null)[],
  query: () => Knex.QueryBuilder,
  column: string,
): Promise<Record<string, unknown>[]> {
  const ids = parentIds.filter((id): id is number => id !== null);
  const top = ids.length < parentIds.length ? await query().whereNull(column) : [];
  const inFolders = ids.length > 0 ? await query().whereIn(column, ids) : [];
  return [...top, ...inFolders];
}

/** A json column as pg (parsed) or PGlite (parsed or text) hands it over; SQL NULL is the fallback. */
export const asJson = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined ? fallback : ((typeof value === "string" ? JSON.parse(value) : value) as T);
