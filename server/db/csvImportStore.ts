import type { Db } from "./knex.js";
import { isUniqueViolationOf } from "./queryHelpers.js";
import type { NewRequirement } from "./requirementWriteStore.js";

/** A requirement an import writes, with its components and custom field values. */
export type ImportedRequirement = NewRequirement & {
  componentIds: string[];
  attributes: Record<string, string>;
};

/**
 * The custom IDs a refused file uses, kept in the checking pass's transaction rather than in the
 * job's memory, so naming a duplicate's first row costs no memory per row however long the file.
 */
export async function createCheckedDisplayIds(trx: Db): Promise<void> {
  await trx.raw("CREATE TEMP TABLE checked_display_ids (display_id text NOT NULL, row_number integer NOT NULL) ON COMMIT DROP");
}

export async function addCheckedDisplayIds(trx: Db, checked: { displayId: string; row: number }[]): Promise<void> {
  if (checked.length === 0) return;
  await trx.raw("INSERT INTO checked_display_ids SELECT * FROM unnest(?::text[], ?::int[])", [
    checked.map((id) => id.displayId),
    checked.map((id) => id.row),
  ]);
}

/** A checked custom ID that is refused: used in an earlier row (firstRow), or by an active requirement of the project (firstRow null). */
export type RefusedDisplayId = { row: number; displayId: string; firstRow: number | null };

/**
 * The checked custom IDs that are refused, in row order, the first `limit` of them listed and all
 * of them counted: each use after an ID's first row, and each first use of an ID the project's
 * active requirements already have.
 */
export async function refusedDisplayIds(
  trx: Db,
  tenantId: string,
  projectId: number,
  limit: number,
): Promise<{ listed: RefusedDisplayId[]; count: number }> {
  const { rows } = await trx.raw(
    `WITH firsts AS (SELECT display_id, min(row_number) AS first_row FROM checked_display_ids GROUP BY display_id),
     refused AS (
       SELECT c.row_number, c.display_id, f.first_row FROM checked_display_ids c JOIN firsts f USING (display_id)
       WHERE c.row_number <> f.first_row
       UNION ALL
       SELECT f.first_row, f.display_id, NULL FROM firsts f
       WHERE EXISTS (SELECT 1 FROM requirements r
                     WHERE r.tenant_id = :tenantId AND r.project_id = :projectId AND r.deleted_at IS NULL AND r.display_id = f.display_id)
     )
     SELECT row_number, display_id, first_row, count(*) OVER () AS total FROM refused ORDER BY row_number LIMIT :limit`,
    { tenantId, projectId, limit },
  );
  return {
    listed: rows.map((row: { row_number: number; display_id: string; first_row: number | null }) => ({
      row: Number(row.row_number),
      displayId: row.display_id,
      firstRow: row.first_row === null ? null : Number(row.first_row),
    })),
    count: Number(rows[0]?.total ?? 0),
  };
}

/**
 * A batch of new requirements in ONE statement: the rows, their components, their custom field
 * values and their 'created' revisions (changed fields and the stored snapshot built by the
 * database, in the form revisionStore's storedSnapshotOf keeps a single save's, the lists an
 * import leaves empty left out). Each column travels as one array (unnest), so the statement
 * has a dozen bind parameters however many rows. Answers the new ids in the batch's order
 * (they come from the sequence in that order).
 *
 * Written for the database's time per row, which bounds the import (2026-11-24, 100,000 rows on
 * PostgreSQL: 27,838 -> about 35,000 rows/s): the sequence is looked up once (a CTE used once is
 * inlined, and the lookup then ran for every row); the snapshot is to_jsonb of a row whose column
 * names are its keys (cheaper than jsonb_build_object's pairs), in the order jsonb keeps keys
 * (shorter first, then bytewise), so building each object finds them sorted, and in the stored
 * form (10 keys instead of 18: 248,700 instructions a row instead of 271,500); its constant
 * requirement type is one parameter; the sorted component lists are built once per distinct set
 * of components in the batch, the status and assignee objects once per distinct status and
 * assignee, and the constant numbers arrive as jsonb (a bigint column goes through text and
 * numeric for every row). Counted under callgrind for 20,000 rows: 8,000 instructions a row
 * for the status object alone, of 270,000 for the whole row.
 */
export async function insertImportBatch(
  db: Db,
  tenantId: string,
  type: { requirement_type_id: number; name: string; prefix: string; level: number },
  batch: ImportedRequirement[],
): Promise<number[]> {
  const first = batch[0];
  if (!first) return [];
  const column = <T>(pick: (requirement: ImportedRequirement) => T) => batch.map(pick);
  const components = componentSetsOf(batch);
  const values = batch.flatMap((r, index) =>
    Object.entries(r.attributes).map(([attributeId, value]) => [index + 1, Number(attributeId), value] as const),
  );
  const { rows } = await db.raw(
    `WITH seq AS MATERIALIZED (SELECT pg_get_serial_sequence('requirements', 'requirement_id')::regclass AS seq),
     u AS MATERIALIZED (
       SELECT nextval(seq.seq) AS id, x.*
       FROM seq, (SELECT * FROM unnest(:displayIds::text[], :names::text[], :descriptions::text[], :statuses::text[], :assignees::text[], :folderIds::bigint[], :componentSets::int[])
               WITH ORDINALITY AS x(display_id, name, description, status_id, assigned_to, parent_folder_id, component_set, ord)
             ORDER BY x.ord) x
     ),
     set_members AS (SELECT * FROM unnest(:setNumbers::int[], :setComponents::text[]) AS x(component_set, component)),
     v AS (SELECT u.id, x.attribute_id, x.value FROM unnest(:valueRows::int[], :valueFields::bigint[], :values::text[]) AS x(ord, attribute_id, value) JOIN u ON u.ord = x.ord),
     inserted AS (
       INSERT INTO requirements (tenant_id, requirement_id, project_id, parent_folder_id, requirement_type_id,
         display_id, name, description, status_id, assigned_to, created_by)
       SELECT :tenantId, u.id, :projectId, u.parent_folder_id, :typeId, u.display_id, u.name, u.description, u.status_id, u.assigned_to, :createdBy
       FROM u ORDER BY u.ord
     ),
     inserted_components AS (
       INSERT INTO requirement_components (tenant_id, requirement_id, atlassian_component_id)
       SELECT :tenantId, u.id, m.component FROM u JOIN set_members m ON m.component_set = u.component_set
     ),
     inserted_values AS (
       INSERT INTO requirement_attribute_values (tenant_id, requirement_id, attribute_id, value) SELECT :tenantId, v.id, v.attribute_id, v.value FROM v
     ),
     sets AS (
       SELECT m.component_set, jsonb_agg(jsonb_build_object('atlassian_component_id', m.component) ORDER BY m.component) AS components
       FROM set_members m GROUP BY m.component_set
     ),
     statuses AS (SELECT s.status_id, jsonb_build_object('atlassian_status_id', s.status_id) AS status FROM (SELECT DISTINCT status_id FROM u) s),
     assignees AS (SELECT a.assigned_to, jsonb_build_object('account_id', a.assigned_to) AS assignee FROM (SELECT DISTINCT assigned_to FROM u) a),
     va AS (SELECT v.id, jsonb_object_agg(v.attribute_id::text, v.value) AS attributes FROM v GROUP BY v.id)
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
       SELECT u.id, u.name, statuses.status, va.attributes, sets.components, u.display_id,
         assignees.assignee AS assigned_to, u.description, u.parent_folder_id
       FROM u LEFT JOIN sets ON sets.component_set = u.component_set LEFT JOIN va ON va.id = u.id
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
      projectId: first.projectId,
      projectIdJson: JSON.stringify(first.projectId),
      typeId: type.requirement_type_id,
      requirementType: JSON.stringify({
        requirement_type_id: type.requirement_type_id,
        name: type.name,
        prefix: type.prefix,
        level: type.level,
      }),
      createdBy: first.createdBy,
      displayIds: column((r) => r.displayId),
      names: column((r) => r.name),
      descriptions: column((r) => r.description),
      statuses: column((r) => r.statusId),
      assignees: column((r) => r.assignedTo),
      folderIds: column((r) => r.parentFolderId),
      componentSets: components.setOfRow,
      setNumbers: components.members.map(([set]) => set),
      setComponents: components.members.map(([, id]) => id),
      valueRows: values.map(([row]) => row),
      valueFields: values.map(([, attributeId]) => attributeId),
      values: values.map(([, , value]) => value),
    },
  );
  // Ids were drawn from the sequence in the batch's order (u is materialised in that order).
  return (rows as { requirement_id: string | number }[]).map((row) => Number(row.requirement_id)).sort((a, b) => a - b);
}

/**
 * The batch's distinct sets of components, numbered, and each row's set (null for none): the
 * database builds each set's sorted list for the snapshots once, not once per requirement.
 */
function componentSetsOf(batch: ImportedRequirement[]): { setOfRow: (number | null)[]; members: (readonly [number, string])[] } {
  const numberOfSet = new Map<string, number>();
  const members: (readonly [number, string])[] = [];
  const setOfRow = batch.map(({ componentIds }) => {
    if (componentIds.length === 0) return null;
    const key = JSON.stringify([...componentIds].sort());
    let set = numberOfSet.get(key);
    if (set === undefined) {
      set = numberOfSet.size + 1;
      numberOfSet.set(key, set);
      for (const id of componentIds) members.push([set, id]);
    }
    return set;
  });
  return { setOfRow, members };
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
