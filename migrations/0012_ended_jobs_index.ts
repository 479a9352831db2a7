import type { Knex } from "knex";

/**
 * The hourly clean-up of matrix exports looks for jobs that ended long ago across every site. Only
 * ended jobs are in this index, and the clean-up deletes the exports it finds, so the sweep reads
 * about one day of exports however many jobs the table has collected.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX jobs_ended ON jobs (name, updated_at) WHERE status IN ('finished', 'failed')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS jobs_ended");
}
