/**
 * New requirements written set-based (a CSV or Excel import's accepted rows, a ReqIF import's
 * batches): staged in the temporary table import_rows, then inserted with their components,
 * custom field values and first revisions in one statement.
 */
import type { Db } from "../knex.js";
import type { NewRequirement } from "./writes.js";

/** A requirement an import writes, with its components and custom field values. */
export type ImportedRequirement = NewRequirement & {
  component_ids: string[];
  attributes: Record<string, string>;
};

/** A requirement an import stages, its folder resolved. */
type StagedRequirement = Omit<ImportedRequirement, "project_id" | "requirement_type_id" | "created_by">;
type ImportedType = { requirement_type_id: number; name: string; prefix: string; level: number };

/** The import's staging table of accepted rows (import_rows), in its transaction (dropped at its end). */
export async function createImportRows(trx: Db): Promise<void> {
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
    { projectId: first.project_id, createdBy: first.created_by, type },
    { fromOrd: 1, toOrd: batch.length },
  );
}

/** Accepted rows, numbered on from `firstOrd` in the file's order. */
export async function stageImportRows(trx: Db, firstOrd: number, rows: StagedRequirement[]): Promise<void> {
  if (rows.length === 0) return;
  const staged = rows.map((row, index) => ({
    ord: firstOrd + index,
    display_id: row.display_id,
    name: row.name,
    description: row.description,
    status_id: row.status_id,
    assigned_to: row.assigned_to,
    parent_folder_id: row.parent_folder_id,
    // Sorted: rows with the same components share one list in the revisions' snapshots (insertStagedRequirements).
    component_ids: [...row.component_ids].sort(),
    attributes: Object.fromEntries(Object.entries(row.attributes).map(([id, value]) => [String(Number(id)), value])),
  }));
  await trx.raw(
    `INSERT INTO import_rows SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord integer, display_id text, name text,
       description text, status_id text, assigned_to text, parent_folder_id bigint, component_ids text[], attributes jsonb)`,
    [JSON.stringify(staged)],
  );
}

/**
 * The staged rows numbered `fromOrd` to `toOrd` as new requirements in ONE statement: the rows,
 * their components, their custom field values and their 'created' revisions (changed fields and
 * the stored snapshot built by the database, in the form revisions.ts's storedSnapshotOf keeps a
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
