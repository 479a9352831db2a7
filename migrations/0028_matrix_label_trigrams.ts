import type { Knex } from "knex";
import { extensionSchema } from "./0021_requirement_search.js";

/**
 * The traceability matrix's filter (issue 37): every word must be in the row's label, "SYS-12: Name"
 * lower-cased. Its part after the type's prefix (the requirement's own ID, a colon, the name) is
 * indexed by trigrams, led by the site and the project (btree_gin, 0021), so a word is looked up
 * instead of testing every requirement of the project; the prefix lives on the type and is matched
 * in the query against the site's few types (matrixStore). Only live requirements are in it.
 */
export async function up(knex: Knex): Promise<void> {
  const trigramOps = `${await extensionSchema(knex, "pg_trgm")}.gin_trgm_ops`;
  await knex.raw(
    `CREATE INDEX requirements_matrix_label ON requirements USING gin (tenant_id, project_id,
      (lower(COALESCE(NULLIF(btrim(display_id), ''), requirement_id::text) || ': ' || name)) ${trigramOps}) WHERE deleted_at IS NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS requirements_matrix_label");
}
