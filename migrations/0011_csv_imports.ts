import type { Knex } from "knex";

/**
 * One row per uploaded file that was imported, written in the import's own transaction: a job
 * retried after its worker died between the commit and the report finds it and does not import
 * the rows a second time, and two workers on the same file cannot both write.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("csv_imports", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.text("uuid_file_name").notNullable();
    t.bigInteger("project_id").notNullable();
    t.integer("imported_rows").notNullable();
    t.text("created_by").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "uuid_file_name"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("csv_imports");
}
