import type { Knex } from "knex";

/**
 * The ReqIF identifiers of what an import created, per project: a re-import of the same file finds
 * its requirements and folders by them and updates them instead of creating twins, and an export
 * writes a requirement under the identifier it came with (the sending tool then updates too).
 * Exactly one of requirement_id and folder_id is set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("reqif_identifiers", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigInteger("project_id").notNullable();
    t.text("reqif_identifier").notNullable();
    t.bigInteger("requirement_id");
    t.bigInteger("folder_id");
    t.primary(["tenant_id", "project_id", "reqif_identifier"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.foreign(["tenant_id", "folder_id"]).references(["tenant_id", "folder_id"]).inTable("folders").onDelete("CASCADE");
  });
  await knex.raw(
    "ALTER TABLE reqif_identifiers ADD CONSTRAINT reqif_identifiers_one_target CHECK ((requirement_id IS NULL) <> (folder_id IS NULL))",
  );
  // An export reads the identifiers of a page of requirements by their ids.
  await knex.raw(
    "CREATE INDEX reqif_identifiers_by_requirement ON reqif_identifiers (tenant_id, requirement_id) WHERE requirement_id IS NOT NULL",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("reqif_identifiers");
}
