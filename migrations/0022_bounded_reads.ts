import type { Knex } from "knex";

/**
 * Issue 37: reads that stay bounded at 100,000 requirements.
 * - The matrix window walks a project's requirements in id order at any offset: this index serves
 *   that walk (and the filtered count) index-only, where requirements_tree would sort the project.
 * - The retention sweep finds what is old across every site without reading the rest: sent
 *   notification keys by `sent_at`, ended jobs of every kind by their end (`updated_at`; 0012's
 *   index leads with the job's name), import files by `created_at`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX requirements_in_project ON requirements (tenant_id, project_id, requirement_id) WHERE deleted_at IS NULL",
  );
  await knex.raw("CREATE INDEX notification_deliveries_sent ON notification_deliveries (sent_at)");
  await knex.raw("CREATE INDEX jobs_ended_at ON jobs (updated_at) WHERE status IN ('finished', 'failed')");
  await knex.raw("CREATE INDEX attachments_imports_created ON attachments (created_at) WHERE operation = 'import'");
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ["attachments_imports_created", "jobs_ended_at", "notification_deliveries_sent", "requirements_in_project"]) {
    await knex.raw("DROP INDEX IF EXISTS ??", [index]);
  }
}
