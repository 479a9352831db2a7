import type { Knex } from "knex";

/**
 * A site's Atlassian cloud id, from its `installed` callback. A site URL can change hands (a
 * renamed site frees its old one, a deleted site's name can be registered again), and the data of
 * an uninstalled site stays: a tenant found by URL alone would hand one organisation's requirements
 * to the next owner of its address. Null on tenants recorded before this, until their next install.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE tenants ADD COLUMN cloud_id text");
  await knex.raw("CREATE UNIQUE INDEX tenants_cloud_id_unique ON tenants (cloud_id) WHERE cloud_id IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS tenants_cloud_id_unique");
  await knex.raw("ALTER TABLE tenants DROP COLUMN IF EXISTS cloud_id");
}
