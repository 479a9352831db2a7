import type { Knex } from "knex";

/**
 * The Forge installation carrying a site's Connect installation ("Connect on Forge"): its `installed`
 * callback names it (`installationId`), and Forge invocations name only it. One per installation,
 * looked up by its id on every Forge sign-in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("installations", (t) => {
    t.text("forge_installation_id").nullable().unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("installations", (t) => {
    t.dropColumn("forge_installation_id");
  });
}
