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

/**
 * SQLSTATEs of a database that is going away or not there (yet): its connection was cut
 * (57P01 pg_terminate_backend or a fast shutdown, 57P02 a crash), it is starting up (57P03),
 * it refuses connections (08xxx, 53300 too many, 55000 a database closed to connections).
 */
const UNREACHABLE_CODES = new Set(["57P01", "57P02", "57P03", "53300", "55000"]);
/** The same from the driver: the socket refused or cut before the server could say why. */
const UNREACHABLE_SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"]);

export const DATABASE_UNREACHABLE_MESSAGE = "The database is not reachable";

/**
 * Whether a failure means the database could not be reached (a restart, a failover, a cut
 * connection) rather than that the statement was wrong: the request may simply be tried again.
 * 55000 is also "not in prerequisite state" for statements, so only its connection refusal counts.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const candidate = error as (DatabaseError & { name?: string }) | null;
  if (!candidate || typeof candidate !== "object") return false;
  const code = String(candidate.code ?? "");
  const message = String(candidate.message ?? "");
  if (code === "55000") return message.includes("not currently accepting connections");
  if (UNREACHABLE_CODES.has(code) || code.startsWith("08") || UNREACHABLE_SOCKET_CODES.has(code)) return true;
  // Knex's pool waited too long for a connection; pg lost its socket mid-query, or was asked again
  // on a connection it had lost (knex puts the statement before pg's message).
  return candidate.name === "KnexTimeoutError" || /Connection terminated|encountered a connection error/.test(message);
}
