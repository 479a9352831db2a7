import type { Db } from "./knex.js";
import { isUniqueViolationOf } from "./queryHelpers.js";
import type { NewRequirement } from "./requirementWriteStore.js";

/** A requirement an import writes, with its components and custom field values. */
export type ImportedRequirement = NewRequirement & {
  componentIds: string[];
  attributes: Record<string, string>;
};

/** A requirement an import stages, its folder resolved. */
type StagedRequirement = Omit<ImportedRequirement, "projectId" | "requirementTypeId" | "createdBy">;
type ImportedType = { requirement_type_id: number; name: string; prefix: string; level: number };

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

async function createImportRows(trx: Db): Promise<void> {
  await trx.raw(`CREATE TEMP TABLE IF NOT EXISTS import_rows (
    ord integer PRIMARY KEY, display_id text, name text NOT NULL, description text NOT NULL, status_id text,
    assigned_to text, parent_folder_id bigint, component_ids text[] NOT NULL, attributes jsonb NOT NULL) ON COMMIT DROP`);
}

/**
 * A batch of new requirements of one type, written at once (a ReqIF import's): staged, then
 * inserted by the CSV import's statement. Answers their ids in the batch's order. Inside a transaction.
 */
export async function insertImportBatch(trx: Db, tenantId: string, type: ImportedType, batch: ImportedRequirement[]): Promise<number[]> {
  const first = batch[0];
  if (!first) return [];
  await createImportRows(trx);
  await trx.raw("DELETE FROM import_rows");
  await stageImportRows(trx, 1, batch);
  return insertStagedRequirements(
    trx,
    tenantId,
    { projectId: first.projectId, createdBy: first.createdBy, type },
    { fromOrd: 1, toOrd: batch.length },
  );
}

/** Accepted rows, numbered on from `firstOrd` in the file's order. */
export async function stageImportRows(trx: Db, firstOrd: number, rows: StagedRequirement[]): Promise<void> {
  if (rows.length === 0) return;
  const staged = rows.map((row, index) => ({
    ord: firstOrd + index,
    display_id: row.displayId,
    name: row.name,
    description: row.description,
    status_id: row.statusId,
    assigned_to: row.assignedTo,
    parent_folder_id: row.parentFolderId,
    // Sorted: rows with the same components share one list in the revisions' snapshots (insertStagedRequirements).
    component_ids: [...row.componentIds].sort(),
    attributes: Object.fromEntries(Object.entries(row.attributes).map(([id, value]) => [String(Number(id)), value])),
  }));
  await trx.raw(
    `INSERT INTO import_rows SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord integer, display_id text, name text,
       description text, status_id text, assigned_to text, parent_folder_id bigint, component_ids text[], attributes jsonb)`,
    [JSON.stringify(staged)],
  );
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

/**
 * The staged rows numbered `fromOrd` to `toOrd` as new requirements in ONE statement: the rows,
 * their components, their custom field values and their 'created' revisions (changed fields and
 * the stored snapshot built by the database, in the form revisionStore's storedSnapshotOf keeps a
 * single save's, the lists an import leaves empty left out). Answers the new ids in the rows' order
 * (they come from the sequence in that order).
 *
 * Written for the database's time per row, which bounds the import (2026-11-24, 100,000 rows on
 * PostgreSQL: 27,838 -> about 35,000 rows/s): the sequence is looked up once (a CTE used once is
 * inlined, and the lookup then ran for every row); the snapshot is to_jsonb of a row whose column
 * names are its keys (cheaper than jsonb_build_object's pairs), in the order jsonb keeps keys
 * (shorter first, then bytewise), so building each object finds them sorted, and in the stored
 * form (10 keys instead of 18); its constant requirement type is one parameter; the sorted
 * component lists are built once per distinct set of components in the batch, the status and
 * assignee objects once per distinct status and assignee, and the constant numbers arrive as
 * jsonb (a bigint column goes through text and numeric for every row).
 */
export async function insertStagedRequirements(
  db: Db,
  tenantId: string,
  into: { projectId: number; createdBy: string; type: ImportedType },
  range: { fromOrd: number; toOrd: number },
): Promise<number[]> {
  const { type } = into;
  const { rows } = await db.raw(
    `WITH seq AS MATERIALIZED (SELECT pg_get_serial_sequence('requirements', 'requirement_id')::regclass AS seq),
     u AS MATERIALIZED (
       SELECT nextval(seq.seq) AS id, x.*
       FROM seq, (SELECT * FROM import_rows WHERE ord BETWEEN :fromOrd AND :toOrd ORDER BY ord) x
     ),
     inserted AS (
       INSERT INTO requirements (tenant_id, requirement_id, project_id, parent_folder_id, requirement_type_id,
         display_id, name, description, status_id, assigned_to, created_by)
       SELECT :tenantId, u.id, :projectId, u.parent_folder_id, :typeId, u.display_id, u.name, u.description, u.status_id, u.assigned_to, :createdBy
       FROM u ORDER BY u.ord
     ),
     inserted_components AS (
       INSERT INTO requirement_components (tenant_id, requirement_id, atlassian_component_id)
       SELECT :tenantId, u.id, c.component FROM u CROSS JOIN LATERAL unnest(u.component_ids) AS c(component)
     ),
     inserted_values AS (
       INSERT INTO requirement_attribute_values (tenant_id, requirement_id, attribute_id, value)
       SELECT :tenantId, u.id, a.key::bigint, a.value FROM u CROSS JOIN LATERAL jsonb_each_text(u.attributes) a
     ),
     sets AS (
       SELECT s.component_ids, jsonb_agg(jsonb_build_object('atlassian_component_id', c.component) ORDER BY c.component) AS components
       FROM (SELECT DISTINCT component_ids FROM u WHERE cardinality(component_ids) > 0) s
         CROSS JOIN LATERAL unnest(s.component_ids) AS c(component)
       GROUP BY s.component_ids
     ),
     statuses AS (SELECT s.status_id, jsonb_build_object('atlassian_status_id', s.status_id) AS status FROM (SELECT DISTINCT status_id FROM u) s),
     assignees AS (SELECT a.assigned_to, jsonb_build_object('account_id', a.assigned_to) AS assignee FROM (SELECT DISTINCT assigned_to FROM u) a)
     INSERT INTO requirement_revisions (tenant_id, requirement_id, revision, account_id, action, changed_fields, snapshot)
     SELECT :tenantId, x.id, 1, :createdBy, 'created',
       array_remove(ARRAY['name', 'requirement_type_id',
         CASE WHEN x.display_id IS NOT NULL THEN 'display_id' END,
         CASE WHEN x.description <> '' THEN 'description' END,
         CASE WHEN x.assigned_to IS NOT NULL THEN 'assigned_to' END,
         CASE WHEN x.status IS NOT NULL THEN 'status' END,
         CASE WHEN x.components IS NOT NULL THEN 'components' END,
         CASE WHEN x.attributes IS NOT NULL THEN 'attributes' END], NULL),
       to_jsonb(snapshot)
     FROM (
       SELECT u.id, u.name, statuses.status, nullif(u.attributes, '{}') AS attributes, sets.components, u.display_id,
         assignees.assignee AS assigned_to, u.description, u.parent_folder_id
       FROM u LEFT JOIN sets ON sets.component_ids = u.component_ids
         LEFT JOIN statuses ON statuses.status_id = u.status_id LEFT JOIN assignees ON assignees.assigned_to = u.assigned_to
     ) x
     CROSS JOIN LATERAL (
       SELECT x.name, x.status, :projectIdJson::jsonb AS project, coalesce(x.attributes, '{}') AS attributes,
         coalesce(x.components, '[]') AS components, x.display_id, x.assigned_to, x.description, x.parent_folder_id,
         :requirementType::jsonb AS requirement_type
     ) snapshot
     RETURNING requirement_id`,
    {
      tenantId,
      projectId: into.projectId,
      projectIdJson: JSON.stringify(into.projectId),
      typeId: type.requirement_type_id,
      requirementType: JSON.stringify({
        requirement_type_id: type.requirement_type_id,
        name: type.name,
        prefix: type.prefix,
        level: type.level,
      }),
      createdBy: into.createdBy,
      fromOrd: range.fromOrd,
      toOrd: range.toOrd,
    },
  );
  // Ids were drawn from the sequence in the rows' order (u is materialised in that order).
  return (rows as { requirement_id: string | number }[]).map((row) => Number(row.requirement_id)).sort((a, b) => a - b);
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

/** A custom ID the project's active requirements already use (requirements_display_id_unique, migration 0001). */
export function isDisplayIdTaken(error: unknown): boolean {
  return isUniqueViolationOf(error, "requirements_display_id_unique");
}
