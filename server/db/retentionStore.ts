import type { Db } from "./knex.js";

/**
 * The retention sweep's statements: each deletes (or reads) at most `limit` rows, oldest first,
 * found by an index on their age (0022), so a sweep costs the same however much a site has kept.
 */

/** Deletes up to `limit` delivery keys sent before `before`; answers how many went. */
export async function deleteDeliveriesSentBefore(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM notification_deliveries WHERE (tenant_id, delivery_key) IN (
       SELECT tenant_id, delivery_key FROM notification_deliveries WHERE sent_at < ? ORDER BY sent_at LIMIT ?)`,
    [before, limit],
  );
  return Number(result.rowCount ?? 0);
}

/** Deletes up to `limit` jobs that ended before `before`, except those of `keep` (kinds with a clean-up of their own). */
export async function deleteJobsEndedBefore(db: Db, before: Date, keep: readonly string[], limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM jobs WHERE (tenant_id, job_id) IN (
       SELECT tenant_id, job_id FROM jobs
       WHERE status IN ('finished', 'failed') AND updated_at < ? AND NOT (name = ANY(?))
       ORDER BY updated_at LIMIT ?)`,
    [before, [...keep], limit],
  );
  return Number(result.rowCount ?? 0);
}

export type ImportFile = { tenantId: string; uuidFileName: string };

/** Up to `limit` import uploads recorded before `before`, oldest first. */
export async function importFilesCreatedBefore(db: Db, before: Date, limit: number): Promise<ImportFile[]> {
  const rows: { tenant_id: string; uuid_file_name: string }[] = await db("attachments")
    .where("operation", "import")
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .select("tenant_id", "uuid_file_name");
  return rows.map((row) => ({ tenantId: row.tenant_id, uuidFileName: row.uuid_file_name }));
}

export async function deleteImportFileRows(db: Db, files: readonly ImportFile[]): Promise<void> {
  if (files.length === 0) return;
  await db("attachments")
    .where("operation", "import")
    .whereIn(
      ["tenant_id", "uuid_file_name"],
      files.map((file) => [file.tenantId, file.uuidFileName]),
    )
    .delete();
}
