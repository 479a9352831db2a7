import type { Knex } from "knex";

/**
 * Indexes for a project of 20,000 requirements in 1,000 folders (one holding 5,000): every tree
 * level is one index range scan in display order, the descendant flags are index-only EXISTS
 * probes, and the type-delete check does not scan the project.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX requirements_tree ON requirements (tenant_id, project_id, parent_folder_id, requirement_id) WHERE deleted_at IS NULL",
  );
  await knex.raw(
    "CREATE INDEX folders_tree ON folders (tenant_id, project_id, parent_folder_id, name) WHERE deleted_at IS NULL",
  );
  await knex.raw("CREATE INDEX folders_children ON folders (tenant_id, parent_folder_id) WHERE deleted_at IS NULL");
  await knex.raw(
    "CREATE INDEX requirements_by_type ON requirements (tenant_id, requirement_type_id) WHERE deleted_at IS NULL",
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ["requirements_by_type", "folders_children", "folders_tree", "requirements_tree"]) {
    await knex.raw("DROP INDEX IF EXISTS ??", [index]);
  }
}
