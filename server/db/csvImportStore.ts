import type { Db } from "./knex.js";
import type { NewRequirement } from "./requirementWriteStore.js";

/** A requirement an import writes, with its components and custom field values. */
export type ImportedRequirement = NewRequirement & {
  componentIds: string[];
  attributes: Record<string, string>;
};

/** Custom IDs among `displayIds` that active requirements of the project already use. */
export async function displayIdsInUse(db: Db, tenantId: string, projectId: number, displayIds: string[]): Promise<string[]> {
  if (displayIds.length === 0) return [];
  const rows: { display_id: string }[] = await db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .whereIn("display_id", displayIds)
    .select("display_id");
  return rows.map((row) => row.display_id);
}

/**
 * A batch of new requirements in ONE statement: the rows, their components, their custom field
 * values and their 'created' revisions (snapshot and changed fields built by the database, in
 * the shape snapshotOf gives a single save). Each column travels as one array (unnest), so the
 * statement has a dozen bind parameters however many rows, and nothing is read back.
 * Ids come from the sequence in the batch's order.
 */
export async function insertImportBatch(
  db: Db,
  tenantId: string,
  type: { requirement_type_id: number; name: string; prefix: string; level: number },
  batch: ImportedRequirement[],
): Promise<void> {
  const first = batch[0];
  if (!first) return;
  const column = <T>(pick: (requirement: ImportedRequirement) => T) => batch.map(pick);
  const components = batch.flatMap((r, index) => r.componentIds.map((id) => [index + 1, id] as const));
  const values = batch.flatMap((r, index) =>
    Object.entries(r.attributes).map(([attributeId, value]) => [index + 1, Number(attributeId), value] as const),
  );
  await db.raw(
    `WITH seq AS (SELECT pg_get_serial_sequence('requirements', 'requirement_id')::regclass AS seq),
     u AS MATERIALIZED (
       SELECT nextval(seq.seq) AS id, x.*
       FROM seq, (SELECT * FROM unnest(:displayIds::text[], :names::text[], :descriptions::text[], :statuses::text[], :assignees::text[], :folderIds::bigint[])
               WITH ORDINALITY AS x(display_id, name, description, status_id, assigned_to, parent_folder_id, ord)
             ORDER BY x.ord) x
     ),
     c AS (SELECT u.id, x.component FROM unnest(:componentRows::int[], :componentIds::text[]) AS x(ord, component) JOIN u ON u.ord = x.ord),
     v AS (SELECT u.id, x.attribute_id, x.value FROM unnest(:valueRows::int[], :valueFields::bigint[], :values::text[]) AS x(ord, attribute_id, value) JOIN u ON u.ord = x.ord),
     inserted AS (
       INSERT INTO requirements (tenant_id, requirement_id, project_id, parent_folder_id, requirement_type_id,
         display_id, name, description, status_id, assigned_to, created_by)
       SELECT :tenantId, u.id, :projectId, u.parent_folder_id, :typeId, u.display_id, u.name, u.description, u.status_id, u.assigned_to, :createdBy
       FROM u ORDER BY u.ord
     ),
     inserted_components AS (
       INSERT INTO requirement_components (tenant_id, requirement_id, atlassian_component_id) SELECT :tenantId, c.id, c.component FROM c
     ),
     inserted_values AS (
       INSERT INTO requirement_attribute_values (tenant_id, requirement_id, attribute_id, value) SELECT :tenantId, v.id, v.attribute_id, v.value FROM v
     ),
     ca AS (SELECT c.id, jsonb_agg(jsonb_build_object('atlassian_component_id', c.component) ORDER BY c.component) AS components FROM c GROUP BY c.id),
     va AS (SELECT v.id, jsonb_object_agg(v.attribute_id::text, v.value) AS attributes FROM v GROUP BY v.id)
     INSERT INTO requirement_revisions (tenant_id, requirement_id, revision, account_id, action, changed_fields, snapshot)
     SELECT :tenantId, u.id, 1, :createdBy, 'created',
       array_remove(ARRAY['name', 'requirement_type_id',
         CASE WHEN u.display_id IS NOT NULL THEN 'display_id' END,
         CASE WHEN u.description <> '' THEN 'description' END,
         CASE WHEN u.assigned_to IS NOT NULL THEN 'assigned_to' END,
         CASE WHEN u.status_id IS NOT NULL THEN 'status' END,
         CASE WHEN ca.components IS NOT NULL THEN 'components' END,
         CASE WHEN va.attributes IS NOT NULL THEN 'attributes' END], NULL),
       jsonb_build_object(
         'requirement_id', u.id, 'prefix', :prefix::text, 'display_id', u.display_id, 'name', u.name,
         'description', u.description,
         'assigned_to', CASE WHEN u.assigned_to IS NULL THEN NULL ELSE jsonb_build_object('account_id', u.assigned_to) END,
         'components', coalesce(ca.components, '[]'::jsonb), 'issues', '[]'::jsonb,
         'status', CASE WHEN u.status_id IS NULL THEN NULL ELSE jsonb_build_object('atlassian_status_id', u.status_id) END,
         'contents', '[]'::jsonb, 'requirement_type_id', :typeId::bigint,
         'requirement_type', jsonb_build_object('requirement_type_id', :typeId::bigint, 'name', :typeName::text, 'prefix', :prefix::text, 'level', :level::int),
         'linked_requirements', '[]'::jsonb, 'attachments', '[]'::jsonb,
         'attributes', coalesce(va.attributes, '{}'::jsonb),
         'parent_folder_id', u.parent_folder_id, 'project', :projectId::bigint, 'deleted', false)
     FROM u LEFT JOIN ca ON ca.id = u.id LEFT JOIN va ON va.id = u.id`,
    {
      tenantId,
      projectId: first.projectId,
      typeId: type.requirement_type_id,
      typeName: type.name,
      prefix: type.prefix,
      level: type.level,
      createdBy: first.createdBy,
      displayIds: column((r) => r.displayId),
      names: column((r) => r.name),
      descriptions: column((r) => r.description),
      statuses: column((r) => r.statusId),
      assignees: column((r) => r.assignedTo),
      folderIds: column((r) => r.parentFolderId),
      componentRows: components.map(([row]) => row),
      componentIds: components.map(([, id]) => id),
      valueRows: values.map(([row]) => row),
      valueFields: values.map(([, attributeId]) => attributeId),
      values: values.map(([, , value]) => value),
    },
  );
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

function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  const candidate = error as { code?: string; constraint?: string; message?: string } | null;
  return candidate?.code === "23505" && String(candidate.constraint ?? candidate.message ?? "").includes(constraint);
}
