import type { Knex } from "knex";

/**
 * The whole data model of spec section 3. Every table but `tenants` and `installations`
 * carries `tenant_id` as the first column of its primary key and of every foreign key,
 * so the schema can be distributed by tenant (Citus) without change; `tenants` and
 * `installations` are small lookup tables (reference tables there), see docs/scaling.md.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("tenants", (t) => {
    t.uuid("tenant_id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.text("site_url").notNullable().unique();
    t.boolean("active").notNullable().defaultTo(true);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("uninstalled_at", { useTz: true });
  });

  // One row per Connect installation (a Jira or Confluence product of the tenant's site).
  await knex.schema.createTable("installations", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.text("client_key").notNullable();
    t.text("product").notNullable().checkIn(["jira", "confluence"]);
    t.text("base_url").notNullable();
    t.text("shared_secret").notNullable();
    t.jsonb("client_info").notNullable();
    t.boolean("enabled").notNullable().defaultTo(true);
    t.timestamp("installed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "client_key"]);
    t.unique(["client_key"]);
  });

  await knex.schema.createTable("requirement_types", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigIncrements("requirement_type_id", { primaryKey: false });
    t.text("name").notNullable();
    t.text("prefix").notNullable();
    t.integer("level").notNullable().defaultTo(1);
    t.boolean("level_editable").notNullable().defaultTo(true);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("deleted_at", { useTz: true });
    t.primary(["tenant_id", "requirement_type_id"]);
  });

  await knex.schema.createTable("folders", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigIncrements("folder_id", { primaryKey: false });
    t.bigInteger("project_id").notNullable();
    t.bigInteger("parent_folder_id");
    t.text("name").notNullable();
    t.text("description").notNullable().defaultTo("");
    t.text("created_by").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("deleted_at", { useTz: true });
    t.primary(["tenant_id", "folder_id"]);
    t.foreign(["tenant_id", "parent_folder_id"]).references(["tenant_id", "folder_id"]).inTable("folders");
    t.index(["tenant_id", "project_id", "parent_folder_id"]);
  });

  await knex.schema.createTable("folder_issues", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("folder_id").notNullable();
    t.text("atlassian_issue_id").notNullable();
    t.primary(["tenant_id", "folder_id", "atlassian_issue_id"]);
    t.foreign(["tenant_id", "folder_id"]).references(["tenant_id", "folder_id"]).inTable("folders").onDelete("CASCADE");
  });

  await knex.schema.createTable("requirements", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigIncrements("requirement_id", { primaryKey: false });
    t.bigInteger("project_id").notNullable();
    t.bigInteger("parent_folder_id");
    t.bigInteger("requirement_type_id").notNullable();
    t.text("display_id");
    t.text("name").notNullable();
    t.text("description").notNullable().defaultTo("");
    t.text("status_id");
    t.text("assigned_to");
    t.text("created_by").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Bumped by every change; edits compare-and-set on it so a stale save is refused (409).
    t.integer("revision").notNullable().defaultTo(1);
    t.timestamp("deleted_at", { useTz: true });
    t.primary(["tenant_id", "requirement_id"]);
    t.foreign(["tenant_id", "parent_folder_id"]).references(["tenant_id", "folder_id"]).inTable("folders");
    t.foreign(["tenant_id", "requirement_type_id"])
      .references(["tenant_id", "requirement_type_id"])
      .inTable("requirement_types");
    t.index(["tenant_id", "project_id", "parent_folder_id"]);
  });
  await knex.raw(
    "CREATE UNIQUE INDEX requirements_display_id_unique ON requirements (tenant_id, project_id, display_id) WHERE deleted_at IS NULL AND display_id IS NOT NULL",
  );

  await knex.schema.createTable("requirement_components", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.text("atlassian_component_id").notNullable();
    t.primary(["tenant_id", "requirement_id", "atlassian_component_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
  });

  // A link between two requirements is undirected: stored once, lower id first.
  await knex.schema.createTable("requirement_links", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.bigInteger("linked_requirement_id").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "requirement_id", "linked_requirement_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.foreign(["tenant_id", "linked_requirement_id"])
      .references(["tenant_id", "requirement_id"])
      .inTable("requirements")
      .onDelete("CASCADE");
    t.index(["tenant_id", "linked_requirement_id"]);
    t.check("requirement_id < linked_requirement_id", [], "requirement_links_ordered");
  });

  await knex.schema.createTable("requirement_issue_links", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.text("atlassian_issue_id").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "requirement_id", "atlassian_issue_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.index(["tenant_id", "atlassian_issue_id"]);
  });

  await knex.schema.createTable("requirement_content_links", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.text("atlassian_content_id").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "requirement_id", "atlassian_content_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.index(["tenant_id", "atlassian_content_id"]);
  });

  await knex.schema.createTable("attachments", (t) => {
    t.uuid("tenant_id").notNullable();
    t.text("uuid_file_name").notNullable();
    t.bigInteger("requirement_id");
    t.text("original_file_name").notNullable();
    t.text("content_type");
    t.bigInteger("size_bytes");
    t.text("operation").notNullable().checkIn(["attachment", "import", "export"]);
    t.text("created_by");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "uuid_file_name"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.index(["tenant_id", "requirement_id"]);
  });

  await knex.schema.createTable("attributes", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigIncrements("attribute_id", { primaryKey: false });
    t.bigInteger("project_id").notNullable();
    t.text("name").notNullable();
    t.text("type").notNullable().checkIn(["string", "select"]);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "attribute_id"]);
    t.index(["tenant_id", "project_id"]);
  });

  await knex.schema.createTable("attribute_options", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigIncrements("attribute_option_id", { primaryKey: false });
    t.bigInteger("attribute_id").notNullable();
    t.text("name").notNullable();
    t.integer("position").notNullable().defaultTo(0);
    t.primary(["tenant_id", "attribute_option_id"]);
    t.foreign(["tenant_id", "attribute_id"]).references(["tenant_id", "attribute_id"]).inTable("attributes").onDelete("CASCADE");
  });

  await knex.schema.createTable("requirement_attribute_values", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.bigInteger("attribute_id").notNullable();
    t.text("value").notNullable();
    t.primary(["tenant_id", "requirement_id", "attribute_id"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements").onDelete("CASCADE");
    t.foreign(["tenant_id", "attribute_id"]).references(["tenant_id", "attribute_id"]).inTable("attributes").onDelete("CASCADE");
  });

  // Frozen copies of a requirement after each change: the Activity list, deleted
  // requirements and baselines all read these, never the live row.
  await knex.schema.createTable("requirement_revisions", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.integer("revision").notNullable();
    t.text("account_id").notNullable();
    t.text("action").notNullable();
    t.specificType("changed_fields", "text[]").notNullable().defaultTo("{}");
    t.jsonb("snapshot").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "requirement_id", "revision"]);
    t.foreign(["tenant_id", "requirement_id"]).references(["tenant_id", "requirement_id"]).inTable("requirements");
  });

  await knex.schema.createTable("baselines", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.bigIncrements("baseline_id", { primaryKey: false });
    t.bigInteger("project_id").notNullable();
    t.text("name").notNullable();
    t.text("description").notNullable().defaultTo("");
    t.text("created_by").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("deleted_at", { useTz: true });
    t.primary(["tenant_id", "baseline_id"]);
    t.index(["tenant_id", "project_id"]);
  });

  await knex.schema.createTable("baseline_revisions", (t) => {
    t.uuid("tenant_id").notNullable();
    t.bigInteger("baseline_id").notNullable();
    t.bigInteger("requirement_id").notNullable();
    t.integer("revision").notNullable();
    t.primary(["tenant_id", "baseline_id", "requirement_id"]);
    t.foreign(["tenant_id", "baseline_id"]).references(["tenant_id", "baseline_id"]).inTable("baselines").onDelete("CASCADE");
    t.foreign(["tenant_id", "requirement_id", "revision"])
      .references(["tenant_id", "requirement_id", "revision"])
      .inTable("requirement_revisions");
  });

  await knex.schema.createTable("customer_settings", (t) => {
    t.uuid("tenant_id").primary().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.boolean("comment_on_associated_issues").notNullable().defaultTo(false);
    t.boolean("send_email_notification_to_assignee").notNullable().defaultTo(false);
    t.text("confluence_spaces_to_filter").notNullable().defaultTo("");
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The job queue lives here so any number of workers share it (FOR UPDATE SKIP LOCKED).
  await knex.schema.createTable("jobs", (t) => {
    t.uuid("tenant_id").notNullable().references("tenant_id").inTable("tenants").onDelete("CASCADE");
    t.uuid("job_id").notNullable().defaultTo(knex.raw("gen_random_uuid()"));
    t.text("name").notNullable();
    t.jsonb("payload").notNullable().defaultTo("{}");
    t.text("status").notNullable().defaultTo("queued").checkIn(["queued", "started", "finished", "failed"]);
    t.integer("completed_rows").notNullable().defaultTo(0);
    t.integer("total_rows").notNullable().defaultTo(0);
    t.jsonb("result");
    t.text("error");
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("run_after", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("locked_at", { useTz: true });
    t.text("locked_by");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["tenant_id", "job_id"]);
  });
  await knex.raw("CREATE INDEX jobs_ready ON jobs (run_after) WHERE status = 'queued'");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "jobs",
    "customer_settings",
    "baseline_revisions",
    "baselines",
    "requirement_revisions",
    "requirement_attribute_values",
    "attribute_options",
    "attributes",
    "attachments",
    "requirement_content_links",
    "requirement_issue_links",
    "requirement_links",
    "requirement_components",
    "requirements",
    "folder_issues",
    "folders",
    "requirement_types",
    "installations",
    "tenants",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
