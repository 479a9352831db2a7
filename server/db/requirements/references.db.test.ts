import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, insertRequirementRow } from "../../../test/helpers/app.js";
import type { Db } from "../knex.js";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";

/** Components and revisions refer to an existing requirement of their own site (foreign keys declared again by migration 0018). */
describe("a requirement's components and revisions", () => {
  let database: TestDatabase;
  let siteA: string;
  let siteB: string;
  let requirementOfA: number;
  let requirementOfB: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    siteA = (await createTenant(database.db)).tenantId;
    siteB = (await createTenant(database.db)).tenantId;
    requirementOfA = await insertRequirementRow(database.db, siteA, "Dose limit");
    requirementOfB = await insertRequirementRow(database.db, siteB, "Occlusion alarm");
  });
  afterAll(() => database.destroy());

  const revision = (tenantId: string, requirementId: number, number: number) => ({
    tenant_id: tenantId,
    requirement_id: requirementId,
    revision: number,
    account_id: "557058:test-user",
    action: "updated",
    snapshot: "{}",
  });
  const component = (tenantId: string, requirementId: number, componentId: string) => ({
    tenant_id: tenantId,
    requirement_id: requirementId,
    atlassian_component_id: componentId,
  });
  const countOf = async (table: string, tenantId: string) =>
    Number((await database.db(table).where({ tenant_id: tenantId }).count({ n: "*" }))[0]?.n);

  it("refuse a statement naming a missing requirement with the foreign key's error, and keep none of its rows", async () => {
    const before = await countOf("requirement_revisions", siteA);
    await expect(
      database.db("requirement_revisions").insert([revision(siteA, requirementOfA, 1), revision(siteA, 987654321, 1)]),
    ).rejects.toMatchObject({ code: "23503" });
    await expect(database.db("requirement_components").insert(component(siteA, 987654321, "10100"))).rejects.toMatchObject({
      code: "23503",
    });
    expect(await countOf("requirement_revisions", siteA)).toBe(before);
    expect(await countOf("requirement_components", siteA)).toBe(0);
  });

  it("refuse another site's requirement as missing", async () => {
    await expect(database.db("requirement_components").insert(component(siteA, requirementOfB, "10100"))).rejects.toMatchObject({
      code: "23503",
    });
    await expect(database.db("requirement_revisions").insert(revision(siteB, requirementOfA, 1))).rejects.toMatchObject({
      code: "23503",
    });
    await database.db("requirement_revisions").insert(revision(siteA, requirementOfA, 1));
    await expect(
      database
        .db("requirement_revisions")
        .where({ tenant_id: siteA, requirement_id: requirementOfA })
        .update({ requirement_id: requirementOfB }),
    ).rejects.toMatchObject({ code: "23503" });
    expect(await database.db("requirement_revisions").where({ tenant_id: siteA, requirement_id: requirementOfA })).toHaveLength(1);
  });

  it("are accepted for the site's own requirement, also when it is created in the same statement's transaction", async () => {
    await database.db.transaction(async (trx) => {
      const fresh = await insertRequirementRow(trx, siteA, "Bolus volume");
      await trx("requirement_components").insert([component(siteA, fresh, "10100"), component(siteA, requirementOfA, "10101")]);
      await trx("requirement_revisions").insert([revision(siteA, fresh, 1), revision(siteA, requirementOfA, 2)]);
    });
    expect(await countOf("requirement_components", siteA)).toBe(2);
  });

  it("go with a deleted requirement (components) or keep it from being deleted (revisions)", async () => {
    const requirementId = await insertRequirementRow(database.db, siteB, "Air in line");
    await database.db("requirement_components").insert(component(siteB, requirementId, "10100"));
    await database.db("requirements").where({ tenant_id: siteB, requirement_id: requirementId }).delete();
    expect(await database.db("requirement_components").where({ tenant_id: siteB, requirement_id: requirementId })).toEqual([]);

    await database.db("requirement_revisions").insert(revision(siteB, requirementOfB, 1));
    await expect(database.db("requirements").where({ tenant_id: siteB, requirement_id: requirementOfB }).delete()).rejects.toMatchObject({
      code: "23503",
    });
    expect(await database.db("requirements").where({ tenant_id: siteB, requirement_id: requirementOfB })).toHaveLength(1);
  });

  // The triggers of migrations 0013–0015 once read a site's whole folder per row here; a foreign key reads its primary key.
  it("are checked one requirement read per row, though the connection first checked them when the site was nearly empty", async () => {
    const { tenantId } = await createTenant(database.db);
    await database.db.transaction(async (trx) => {
      const first = await insertRequirementRow(trx, tenantId, "Dose limit");
      await trx("requirement_components").insert(component(tenantId, first, "10100"));
      await trx.raw(
        `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, name, created_by)
         SELECT tenant_id, project_id, requirement_type_id, 'Requirement ' || g, created_by FROM requirements, generate_series(1, 20000) g
         WHERE tenant_id = ? AND requirement_id = ?`,
        [tenantId, first],
      );
      const requirementsRead = async () =>
        Number(
          (await trx.raw("SELECT idx_tup_fetch FROM pg_stat_xact_user_tables WHERE relid = 'requirements'::regclass")).rows[0]
            .idx_tup_fetch,
        );
      const latest = await trx("requirements")
        .where({ tenant_id: tenantId })
        .orderBy("requirement_id", "desc")
        .limit(1000)
        .pluck("requirement_id");
      const before = await requirementsRead();
      await trx("requirement_components").insert(latest.map((id: number) => component(tenantId, Number(id), "10101")));
      // One read per checked row; a check that scans the site reads 20,000 per row.
      expect((await requirementsRead()) - before).toBeLessThanOrEqual(1_000);
    });
  });

  // A refused import rolled back, then analysed, leaves statistics of a table of empty pages.
  it("are checked with at most two requirement reads per row, though the statistics count no requirements at all", async () => {
    const own = await createTestDatabase();
    try {
      const { tenantId } = await createTenant(own.db);
      const first = await insertRequirementRow(own.db, tenantId, "Dose limit");
      const insertRequirements = (trx: Db) =>
        trx.raw(
          `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, name, created_by)
           SELECT tenant_id, project_id, requirement_type_id, 'Requirement ' || g, created_by FROM requirements, generate_series(1, 20000) g
           WHERE tenant_id = ? AND requirement_id = ?`,
          [tenantId, first],
        );
      await own.db
        .transaction(async (trx) => {
          await insertRequirements(trx);
          await trx.rollback();
        })
        .catch(() => undefined);
      await own.db.raw("ANALYZE requirements");
      await own.db.transaction(async (trx) => {
        await insertRequirements(trx);
        const latest: number[] = (
          await trx("requirements").where({ tenant_id: tenantId }).orderBy("requirement_id", "desc").limit(2_000).pluck("requirement_id")
        ).map(Number);
        const requirementsRead = async () =>
          Number(
            (await trx.raw("SELECT idx_tup_fetch FROM pg_stat_xact_user_tables WHERE relid = 'requirements'::regclass")).rows[0]
              .idx_tup_fetch,
          );
        const before = await requirementsRead();
        // A run of requirements, as an import writes them (one range read), and every third one (one probe each).
        await trx("requirement_revisions").insert(latest.slice(0, 1_000).map((id) => revision(tenantId, id, 1)));
        await trx("requirement_components").insert(
          latest.filter((_, index) => index % 3 === 0).map((id) => component(tenantId, id, "10101")),
        );
        // 1,667 rows checked; a check that scans the site reads 20,000 per statement or per row.
        expect((await requirementsRead()) - before).toBeLessThanOrEqual(2 * 1_667);
      });
    } finally {
      await own.destroy();
    }
  });

  it("keep the key of a requirement with revisions fixed", async () => {
    await expect(
      database.db("requirements").where({ tenant_id: siteA, requirement_id: requirementOfA }).update({ requirement_id: 987654322 }),
    ).rejects.toMatchObject({ code: "23503" });
    await database.db("requirements").where({ tenant_id: siteA, requirement_id: requirementOfA }).update({ name: "Dose limit, renamed" });
    expect((await database.db("requirements").where({ requirement_id: requirementOfA }).first("name"))?.name).toBe("Dose limit, renamed");
  });
});
