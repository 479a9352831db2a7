/** Query pieces the stores share. */
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

/** A page of a list in its order: `limit` rows from `offset`. */
export type ListWindow = { offset: number; limit: number };

export const inWindow = (query: Knex.QueryBuilder, window: ListWindow | undefined): Knex.QueryBuilder =>
  window ? query.offset(window.offset).limit(window.limit) : query;

/** Counts the rows of `query` directly under `parentId` in `column` (null = the top level). */
export async function countUnder(query: Knex.QueryBuilder, column: string, parentId: number | null): Promise<number> {
  const scoped = parentId === null ? query.whereNull(column) : query.where(column, parentId);
  const row = await scoped.count<{ count: string | number }[]>("* as count").first();
  return Number(row?.count ?? 0);
}

/** A json column as pg (parsed) or PGlite (parsed or text) hands it over; SQL NULL is the fallback. */
export const asJson = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined ? fallback : ((typeof value === "string" ? JSON.parse(value) : value) as T);

/**
 * Holds a lock on `name` until the transaction ends (a PostgreSQL advisory lock keyed by a hash of
 * the name): for rules over several rows that no row lock covers. Shared holders run side by side.
 */
export async function lockName(db: Knex, name: string, mode: "exclusive" | "shared"): Promise<void> {
  const lock = mode === "exclusive" ? "pg_advisory_xact_lock" : "pg_advisory_xact_lock_shared";
  await db.raw(`SELECT ${lock}(hashtextextended(?, 0))`, [`rmcloud.${name}`]);
}

/** PostgreSQL's error as pg and PGlite raise it: its SQLSTATE and, for a constraint's, the constraint's name. */
export type DatabaseError = { code?: string; constraint?: string; table?: string; message?: string };

/** A unique violation of the named constraint (or index), however the driver reports the name. */
export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  const candidate = error as DatabaseError | null;
  return candidate?.code === "23505" && String(candidate.constraint ?? candidate.message ?? "").includes(constraint);
}
