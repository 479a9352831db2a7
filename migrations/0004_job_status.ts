import type { Knex } from "knex";

/**
 * pg-boss is the queue now (its own schema, created when the queue starts), so the hand-made
 * `jobs` table keeps only what `GET /api/job/status/:jobId` answers: its locking and retry columns
 * go. `notification_deliveries` remembers what a notification job already sent, so a second delivery
 * of the same job does not post the same comment or mail again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS jobs_ready");
  await knex.schema.alterTable("jobs", (t) => {
    t.dropColumns("payload", "attempts", "run_after", "locked_at", "locked_by");
    t.text("account_id");
  });
  await knex.schema.createTable("notification_deliveries", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.text("delivery_key").notNullable();
    t.timestamp("sent_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "delivery_key"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("notification_deliveries");
  await knex.schema.alterTable("jobs", (t) => {
    t.dropColumn("account_id");
    t.jsonb("payload").notNullable().defaultTo("{}");
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("run_after", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("locked_at", { useTz: true });
    t.text("locked_by");
  });
  await knex.raw("CREATE INDEX jobs_ready ON jobs (run_after) WHERE status = 'queued'");
}
