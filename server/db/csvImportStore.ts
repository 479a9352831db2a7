/** A CSV or Excel import's own rows: the file it claimed (csv_imports) and its staged custom IDs and row errors. */
import type { Db } from "./knex.js";
import { isUniqueViolationOf } from "./queryHelpers.js";
import { createImportRows } from "./requirements/index.js";

/**
 * The import's staging tables, in its transaction (dropped at its end): the accepted rows, the
 * custom ID of every row (refused rows' too) and every reason a row was refused. The file is read
 * once into them before the project's folder tree is locked; the checks that need the whole file
 * (a custom ID used twice, or already taken) and the final insert are statements over them.
 */
export async function createImportStaging(trx: Db): Promise<void> {
  await createImportRows(trx);
  await trx.raw("CREATE TEMP TABLE checked_display_ids (display_id text NOT NULL, row_number integer NOT NULL) ON COMMIT DROP");
  await trx.raw(`CREATE TEMP TABLE import_errors (
    position integer GENERATED ALWAYS AS IDENTITY, row_number integer NOT NULL, reason text NOT NULL) ON COMMIT DROP`);
}

export async function addCheckedDisplayIds(trx: Db, checked: { displayId: string; row: number }[]): Promise<void> {
  if (checked.length === 0) return;
  await trx.raw("INSERT INTO checked_display_ids SELECT * FROM unnest(?::text[], ?::int[])", [
    checked.map((id) => id.displayId),
    checked.map((id) => id.row),
  ]);
}

export async function addImportErrors(trx: Db, errors: { row: number; reason: string }[]): Promise<void> {
  if (errors.length === 0) return;
  await trx.raw("INSERT INTO import_errors (row_number, reason) SELECT * FROM unnest(?::int[], ?::text[])", [
    errors.map((error) => error.row),
    errors.map((error) => error.reason),
  ]);
}

/**
 * Adds the refused custom IDs to the import's errors: each use after an ID's first row
 * (`usedInRow`, a format() template of the ID and that first row), and each first use of an ID the
 * project's active requirements already have (`usedInProject`, of the ID).
 */
export async function addRefusedDisplayIds(
  trx: Db,
  tenantId: string,
  projectId: number,
  reasons: { usedInRow: string; usedInProject: string },
): Promise<void> {
  await trx.raw(
    `WITH firsts AS (SELECT display_id, min(row_number) AS first_row FROM checked_display_ids GROUP BY display_id)
     INSERT INTO import_errors (row_number, reason)
     SELECT row_number, reason FROM (
       SELECT c.row_number, format(:usedInRow, c.display_id, f.first_row) AS reason
       FROM checked_display_ids c JOIN firsts f USING (display_id) WHERE c.row_number <> f.first_row
       UNION ALL
       SELECT f.first_row, format(:usedInProject, f.display_id) FROM firsts f
       WHERE EXISTS (SELECT 1 FROM requirements r
                     WHERE r.tenant_id = :tenantId AND r.project_id = :projectId AND r.deleted_at IS NULL AND r.display_id = f.display_id)
     ) refused ORDER BY row_number`,
    { tenantId, projectId, ...reasons },
  );
}

/** The import's errors in row order (a row's own in the order found), the first `limit` listed and all counted. */
export async function importErrorSummary(trx: Db, limit: number): Promise<{ listed: { row: number; reason: string }[]; count: number }> {
  const [{ rows: listed }, { rows: counted }] = [
    await trx.raw("SELECT row_number, reason FROM import_errors ORDER BY row_number, position LIMIT ?", [limit]),
    await trx.raw("SELECT count(*) AS count FROM import_errors"),
  ];
  return {
    listed: listed.map((row: { row_number: number; reason: string }) => ({ row: Number(row.row_number), reason: row.reason })),
    count: Number(counted[0]?.count ?? 0),
  };
}

/** Every error of the import in row order, read a page at a time (the list of a large file is not held at once). */
export async function* importErrorPages(trx: Db, pageRows: number): AsyncGenerator<{ row: number; reason: string }[]> {
  let after = { row: 0, position: 0 };
  for (;;) {
    const { rows } = await trx.raw(
      `SELECT row_number, position, reason FROM import_errors WHERE (row_number, position) > (?, ?)
       ORDER BY row_number, position LIMIT ?`,
      [after.row, after.position, pageRows],
    );
    if (rows.length === 0) return;
    yield rows.map((row: { row_number: number; reason: string }) => ({ row: Number(row.row_number), reason: row.reason }));
    const last = rows.at(-1) as { row_number: number; position: number };
    after = { row: Number(last.row_number), position: Number(last.position) };
  }
}

type CompletedImport = { importedRows: number };

export async function findCompletedImport(db: Db, tenantId: string, uuidFileName: string): Promise<CompletedImport | undefined> {
  const row = await db("csv_imports").where({ tenant_id: tenantId, uuid_file_name: uuidFileName }).first("imported_rows");
  return row ? { importedRows: Number(row.imported_rows) } : undefined;
}

/**
 * Claims the file for this import inside its transaction: a second import of the same file waits
 * on the primary key until this one commits, then fails with a unique violation (isAlreadyImported).
 */
export async function recordImport(
  db: Db,
  tenantId: string,
  entry: { uuidFileName: string; projectId: number; createdBy: string },
): Promise<void> {
  await db("csv_imports").insert({
    tenant_id: tenantId,
    uuid_file_name: entry.uuidFileName,
    project_id: entry.projectId,
    imported_rows: 0,
    created_by: entry.createdBy,
  });
}

/** The rows an import wrote, known only at its end (recordImport claimed the file at the start). */
export async function setImportedRows(db: Db, tenantId: string, uuidFileName: string, importedRows: number): Promise<void> {
  await db("csv_imports").where({ tenant_id: tenantId, uuid_file_name: uuidFileName }).update({ imported_rows: importedRows });
}

export function isAlreadyImported(error: unknown): boolean {
  return isUniqueViolationOf(error, "csv_imports");
}
