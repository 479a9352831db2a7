import type { Knex } from "knex";

/**
 * Baselines at 100,000 requirements: the current revision of every active requirement of a
 * project is read from one index (index-only, in id order) by the set-based INSERT … SELECT that
 * takes a baseline, and a baseline's size is stored once so listing and paging never count rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX requirements_current_revision ON requirements (tenant_id, project_id, requirement_id) INCLUDE (parent_folder_id, revision) WHERE deleted_at IS NULL",
  );
  await knex.schema.alterTable("baselines", (t) => {
    t.integer("requirement_count").notNullable().defaultTo(0);
  });
  await knex.raw(
    "CREATE INDEX baselines_newest_first ON baselines (tenant_id, project_id, baseline_id DESC) WHERE deleted_at IS NULL",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS baselines_newest_first");
  await knex.schema.alterTable("baselines", (t) => {
    t.dropColumn("requirement_count");
  });
  await knex.raw("DROP INDEX IF EXISTS requirements_current_revision");
}
