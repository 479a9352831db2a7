import type { Knex } from "knex";

/**
 * The detail reads a requirement's links in both directions. The reverse direction's index gains
 * the other end as an included column, so both directions are index-only scans (no heap visit per
 * link); it replaces the plain index of 0001.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX requirement_links_by_linked ON requirement_links (tenant_id, linked_requirement_id) INCLUDE (requirement_id)",
  );
  await knex.raw("DROP INDEX IF EXISTS requirement_links_tenant_id_linked_requirement_id_index");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX IF NOT EXISTS requirement_links_tenant_id_linked_requirement_id_index ON requirement_links (tenant_id, linked_requirement_id)",
  );
  await knex.raw("DROP INDEX IF EXISTS requirement_links_by_linked");
}
