import type { Knex } from "knex";

/**
 * The search of pickers and of the Requirements screen (GET /api/requirement/search).
 *
 * - Words: a stored generated tsvector of the name (weight A) and the description (weight B), in the
 *   'simple' configuration (no stemming or stop words: a site writes in any language, and prefix
 *   matching covers word endings). Generated, so every write path keeps it without code of its own.
 * - Custom fields: the same vector of each value, as an expression index of the values' table.
 * - IDs: trigrams of the requirement's own ID (its custom ID, else its number), so a custom ID is
 *   found by any part of it; the type's prefix is matched in the query against the site's few types.
 *
 * Each index leads with the site (and the project where the search is scoped to one) through
 * btree_gin, so a site's search reads no other site's postings or rows. pg_trgm and btree_gin are
 * trusted extensions (PostgreSQL 13+) and ship with PGlite (server/db/knex.ts loads them there).
 */
export async function up(knex: Knex): Promise<void> {
  const trigramOps = `${await extensionSchema(knex, "pg_trgm")}.gin_trgm_ops`;
  await extensionSchema(knex, "btree_gin");
  await knex.raw(`ALTER TABLE requirements ADD COLUMN search_document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, name), 'A') || setweight(to_tsvector('simple'::regconfig, description), 'B')
  ) STORED`);
  await knex.raw(
    "CREATE INDEX requirements_search_words ON requirements USING gin (tenant_id, project_id, search_document) WHERE deleted_at IS NULL",
  );
  await knex.raw(
    `CREATE INDEX requirements_search_ids ON requirements USING gin (tenant_id, project_id, lower(coalesce(display_id, requirement_id::text)) ${trigramOps}) WHERE deleted_at IS NULL`,
  );
  await knex.raw(
    "CREATE INDEX requirement_attribute_values_search_words ON requirement_attribute_values USING gin (tenant_id, to_tsvector('simple'::regconfig, value))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS requirement_attribute_values_search_words");
  await knex.raw("DROP INDEX IF EXISTS requirements_search_ids");
  await knex.raw("DROP INDEX IF EXISTS requirements_search_words");
  await knex.raw("ALTER TABLE requirements DROP COLUMN IF EXISTS search_document");
}

/**
 * Creates the extension once per database (in `public` unless it is there already, wherever an
 * operator put it) and answers its schema. A database's extensions are shared by its schemas: one
 * created inside a schema would go with that schema's DROP ... CASCADE, and every index of the
 * other schemas on its operator classes with it. The lock lets schemas migrating at once (tests,
 * replicas) create it one after the other.
 */
export async function extensionSchema(knex: Knex, name: string): Promise<string> {
  await knex.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [`rmcloud extension ${name}`]);
  await knex.raw(`CREATE EXTENSION IF NOT EXISTS ${name} SCHEMA public`);
  const { rows } = await knex.raw<{ rows: { schema: string }[] }>(
    "SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ?",
    [name],
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new Error(`Extension ${name} was not created`);
  return schema;
}
