import type { Knex } from "knex";

/**
 * Issue 34's suspect links: a mark on a link whose requirement changed (name, description, type or
 * custom fields) since someone last looked at the link. One table per kind of link, each keyed as
 * its link table and referring to that link row with ON DELETE CASCADE: a link that goes takes its
 * mark along, with no code of ours to forget it. A requirement link is stored once per pair (lower
 * id first), so its mark is too, and both ends read it; `changed_requirement_id` says which end's
 * change (at `since_revision`) made it suspect. The reviews are kept for the Activity list, and a
 * baseline freezes each requirement's marks beside its revision pointer.
 */
const MARK_TABLES = [
  { table: "suspect_issue_links", links: "requirement_issue_links", target: "atlassian_issue_id" },
  { table: "suspect_content_links", links: "requirement_content_links", target: "atlassian_content_id" },
] as const;

function markColumns(t: Knex.CreateTableBuilder): void {
  t.integer("since_revision").notNullable();
  t.text("changed_by").notNullable();
  t.timestamp("changed_at", { useTz: true }).notNullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("suspect_requirement_links", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.bigInteger("linked_requirement_id").notNullable();
    t.bigInteger("changed_requirement_id").notNullable();
    markColumns(t);
    t.primary(["tenant_id", "requirement_id", "linked_requirement_id"]);
    t.foreign(["tenant_id", "requirement_id", "linked_requirement_id"])
      .references(["tenant_id", "requirement_id", "linked_requirement_id"])
      .inTable("requirement_links")
      .onDelete("CASCADE");
    // The higher end's lists and flags find the mark from its side.
    t.index(["tenant_id", "linked_requirement_id"]);
    t.check("changed_requirement_id IN (requirement_id, linked_requirement_id)", [], "suspect_requirement_links_changed_end");
  });
  for (const { table, links, target } of MARK_TABLES) {
    await knex.schema.createTable(table, (t) => {
      t.uuid("tenant_id").notNullable();
      t.bigInteger("requirement_id").notNullable();
      t.text(target).notNullable();
      markColumns(t);
      t.primary(["tenant_id", "requirement_id", target]);
      t.foreign(["tenant_id", "requirement_id", target]).references(["tenant_id", "requirement_id", target]).inTable(links).onDelete("CASCADE");
    });
  }
  // One row per end of a cleared mark: each requirement's Activity lists its own.
  await knex.schema.createTable("suspect_link_reviews", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigIncrements("review_id", { primaryKey: false });
    t.bigInteger("requirement_id").notNullable();
    t.text("link_type").notNullable().checkIn(["requirement", "issue", "content"]);
    t.text("target_id").notNullable();
    t.integer("revision").notNullable();
    t.text("reviewed_by").notNullable();
    t.timestamp("reviewed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "review_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.index(["tenant_id", "requirement_id"]);
  });
  // A requirement's marks as the baseline froze them ([{link_type, target_id, since_revision}]); null: none.
  await knex.schema.alterTable("baseline_revisions", (t) => {
    t.jsonb("suspect_links");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("baseline_revisions", (t) => {
    t.dropColumn("suspect_links");
  });
  for (const table of ["suspect_link_reviews", "suspect_content_links", "suspect_issue_links", "suspect_requirement_links"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
