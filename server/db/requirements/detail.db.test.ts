import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, insertRequirementRow } from "../../../test/helpers/app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { captureQueries } from "../../../test/helpers/hotReads.js";
import { findRequirementDetail } from "./detail.js";

describe("reading one requirement's detail while others are read", () => {
  let database: TestDatabase;
  let siteA: string;
  let siteB: string;
  const requirementsOfA: number[] = [];
  let requirementOfB: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    siteA = (await createTenant(database.db)).tenantId;
    siteB = (await createTenant(database.db)).tenantId;
    for (let i = 0; i < 150; i++) requirementsOfA.push(await insertRequirementRow(database.db, siteA, `Dose limit ${i}`));
    requirementOfB = await insertRequirementRow(database.db, siteB, "Occlusion alarm");
  });
  afterAll(() => database.destroy());

  /** The detail statements the database receives while `reads` run. */
  async function detailStatementsDuring<T>(reads: () => Promise<T>): Promise<{ result: T; statements: number }> {
    let result: T | undefined;
    const queries = await captureQueries(database.db, async () => {
      result = await reads();
    });
    return { result: result as T, statements: queries.filter((query) => query.name?.startsWith("requirement_detail")).length };
  }

  it("answers reads of one site arriving together with one statement, each with its own requirement", async () => {
    const wanted = requirementsOfA.slice(0, 20);
    const { result, statements } = await detailStatementsDuring(() =>
      Promise.all(wanted.map((id) => findRequirementDetail(database.db, siteA, id))),
    );
    expect(result.map((detail) => [detail?.requirement_id, detail?.name])).toEqual(wanted.map((id, i) => [id, `Dose limit ${i}`]));
    expect(statements).toBe(1);
  });

  it("answers reads of several sites arriving together with one statement, never one site's read with another site's requirement", async () => {
    const { result, statements } = await detailStatementsDuring(() =>
      Promise.all([
        findRequirementDetail(database.db, siteA, requirementsOfA[0] ?? 0),
        findRequirementDetail(database.db, siteA, requirementOfB),
        findRequirementDetail(database.db, siteB, requirementOfB),
        findRequirementDetail(database.db, siteB, requirementsOfA[0] ?? 0),
        findRequirementDetail(database.db, siteA, requirementsOfA[1] ?? 0),
      ]),
    );
    const [ofA, aAskingForB, ofB, bAskingForA, alsoOfA] = result;
    expect(ofA?.name).toBe("Dose limit 0");
    expect(alsoOfA?.name).toBe("Dose limit 1");
    expect(ofB?.name).toBe("Occlusion alarm");
    expect(aAskingForB).toBeUndefined();
    expect(bAskingForA).toBeUndefined();
    expect(statements).toBe(1);
  });

  it("answers more reads than one statement holds, and the same requirement asked twice", async () => {
    const wanted = [...requirementsOfA, requirementsOfA[7] ?? 0];
    const { result, statements } = await detailStatementsDuring(() =>
      Promise.all(wanted.map((id) => findRequirementDetail(database.db, siteA, id))),
    );
    expect(result.map((detail) => detail?.requirement_id)).toEqual(wanted);
    expect(statements).toBe(2);
  });

  it("answers an id no requirement can have with nothing, without failing the reads beside it", async () => {
    const [beyondBigint, fraction, existing] = await Promise.all([
      findRequirementDetail(database.db, siteA, 1e23),
      findRequirementDetail(database.db, siteA, 1.5),
      findRequirementDetail(database.db, siteA, requirementsOfA[1] ?? 0),
    ]);
    expect(beyondBigint).toBeUndefined();
    expect(fraction).toBeUndefined();
    expect(existing?.name).toBe("Dose limit 1");
  });

  it("reads inside a transaction see its own uncommitted change", async () => {
    const id = requirementsOfA[4] ?? 0;
    const trx = await database.db.transaction();
    try {
      await trx("requirements").where({ tenant_id: siteA, requirement_id: id }).update({ name: "Dose limit 4, draft" });
      expect((await findRequirementDetail(trx, siteA, id))?.name).toBe("Dose limit 4, draft");
    } finally {
      await trx.rollback();
    }
    expect((await findRequirementDetail(database.db, siteA, id))?.name).toBe("Dose limit 4");
  });

  it("sees a change committed just before the read", async () => {
    const id = requirementsOfA[3] ?? 0;
    expect((await findRequirementDetail(database.db, siteA, id))?.name).toBe("Dose limit 3");
    await database.db("requirements").where({ tenant_id: siteA, requirement_id: id }).update({ name: "Dose limit 3, revised" });
    expect((await findRequirementDetail(database.db, siteA, id))?.name).toBe("Dose limit 3, revised");
  });
});
