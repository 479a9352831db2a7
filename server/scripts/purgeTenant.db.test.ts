import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, type TestContext, type TestTenant } from "../../test/helpers/app.js";
import type { Db } from "../db/knex.js";
import { storageKey } from "../storage/objectStorage.js";
import { purgeTenant } from "./purgeTenant.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

/** A tenant with a row in every kind of table: folders in a tree, a requirement with revisions in a baseline, links, settings, a job, a sent notification, an import. */
async function seedSite(db: Db, tenant: TestTenant): Promise<void> {
  const tenant_id = tenant.tenantId;
  const [type] = await db("requirement_types").insert({ tenant_id, name: "Business", prefix: "BR" }).returning("requirement_type_id");
  const [parent] = await db("folders").insert({ tenant_id, project_id: 10000, name: "Parent", created_by: "u" }).returning("folder_id");
  const [child] = await db("folders")
    .insert({ tenant_id, project_id: 10000, name: "Child", created_by: "u", parent_folder_id: parent.folder_id })
    .returning("folder_id");
  await db("folder_issues").insert({ tenant_id, folder_id: child.folder_id, atlassian_issue_id: "10001" });
  const [requirement, other] = await db("requirements")
    .insert(
      ["R1", "R2"].map((name) => ({
        tenant_id,
        project_id: 10000,
        parent_folder_id: child.folder_id,
        requirement_type_id: type.requirement_type_id,
        name,
        created_by: "u",
      })),
    )
    .returning("requirement_id");
  const requirement_id = requirement.requirement_id;
  await db("requirement_components").insert({ tenant_id, requirement_id, atlassian_component_id: "1" });
  await db("requirement_links").insert({ tenant_id, requirement_id, linked_requirement_id: other.requirement_id });
  await db("requirement_issue_links").insert({ tenant_id, requirement_id, atlassian_issue_id: "10001" });
  await db("requirement_content_links").insert({ tenant_id, requirement_id, atlassian_content_id: "65537" });
  const mark = { tenant_id, requirement_id, since_revision: 1, changed_by: "u", changed_at: new Date() };
  await db("suspect_requirement_links").insert({
    ...mark,
    linked_requirement_id: other.requirement_id,
    changed_requirement_id: requirement_id,
  });
  await db("suspect_issue_links").insert({ ...mark, atlassian_issue_id: "10001" });
  await db("suspect_content_links").insert({ ...mark, atlassian_content_id: "65537" });
  await db("suspect_link_reviews").insert({
    tenant_id,
    requirement_id,
    link_type: "issue",
    target_id: "10001",
    revision: 1,
    reviewed_by: "u",
  });
  await db("attachments").insert({
    tenant_id,
    requirement_id,
    uuid_file_name: `${tenant_id}.png`,
    original_file_name: "a.png",
    operation: "attachment",
  });
  const [attribute] = await db("attributes")
    .insert({ tenant_id, project_id: 10000, name: "Risk", type: "select" })
    .returning("attribute_id");
  await db("attribute_options").insert({ tenant_id, attribute_id: attribute.attribute_id, name: "High" });
  await db("requirement_attribute_values").insert({ tenant_id, requirement_id, attribute_id: attribute.attribute_id, value: "High" });
  await db("requirement_revisions").insert({ tenant_id, requirement_id, revision: 1, account_id: "u", action: "created", snapshot: "{}" });
  const [baseline] = await db("baselines").insert({ tenant_id, project_id: 10000, name: "B", created_by: "u" }).returning("baseline_id");
  await db("baseline_revisions").insert({ tenant_id, baseline_id: baseline.baseline_id, requirement_id, revision: 1 });
  await db("customer_settings").insert({ tenant_id });
  await db("jobs").insert({ tenant_id, name: "export" });
  await db("notification_deliveries").insert({ tenant_id, delivery_key: "comment:1:1:10001" });
  await db("reqif_identifiers").insert({ tenant_id, project_id: 10000, reqif_identifier: "_R1", requirement_id });
  await db("csv_imports").insert({ tenant_id, uuid_file_name: `${tenant_id}.csv`, project_id: 10000, imported_rows: 2, created_by: "u" });
}

async function rowsOf(db: Db, tenantId: string): Promise<Record<string, number>> {
  const { rows } = await db.raw(
    "select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'tenant_id'",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows as { table_name: string }[]) {
    const [row] = await db(table_name).where({ tenant_id: tenantId }).count({ n: "*" });
    counts[table_name] = Number(row?.n);
  }
  return counts;
}

describe("npm run tenant:purge", () => {
  it("deletes every row and every file of one site, by site URL, and leaves the other site whole", async () => {
    const doomed = await createTenant(ctx.deps.db);
    const kept = await createTenant(ctx.deps.db);
    await seedSite(ctx.deps.db, doomed);
    await seedSite(ctx.deps.db, kept);
    const keptBefore = await rowsOf(ctx.deps.db, kept.tenantId);
    const filesOf = (tenantId: string) =>
      (["attachments", "imports", "exports"] as const).map((area) => storageKey(tenantId, area, `${area}-file.bin`));
    for (const key of [...filesOf(doomed.tenantId), ...filesOf(kept.tenantId)]) {
      await ctx.deps.storage.putObject(key, "bytes", "application/octet-stream");
    }

    const deleted = await purgeTenant(ctx.deps, `${doomed.baseUrl}/wiki`);

    expect(deleted).toMatchObject({ tenants: 1, installations: 1, requirements: 2, folders: 2, baseline_revisions: 1 });
    expect(Object.values(await rowsOf(ctx.deps.db, doomed.tenantId)).every((count) => count === 0)).toBe(true);
    expect(await rowsOf(ctx.deps.db, kept.tenantId)).toEqual(keptBefore);
    expect(Object.values(keptBefore).every((count) => count > 0)).toBe(true);
    const stored = async (keys: string[]) => Promise.all(keys.map(async (key) => (await ctx.deps.storage.head(key)) !== undefined));
    expect(await stored(filesOf(doomed.tenantId))).toEqual([false, false, false]);
    expect(await stored(filesOf(kept.tenantId))).toEqual([true, true, true]);
  });

  it("purges by tenant id and reports an unknown site", async () => {
    const doomed = await createTenant(ctx.deps.db);
    expect(await purgeTenant(ctx.deps, doomed.tenantId)).toMatchObject({ tenants: 1 });
    expect(await ctx.deps.db("tenants").where({ tenant_id: doomed.tenantId })).toEqual([]);
    expect(await purgeTenant(ctx.deps, "https://nobody.atlassian.net")).toBeUndefined();
  });
});
