import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appActor } from "../context.js";
import { createTenant } from "../../../test/helpers/app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { AppError } from "../../errors.js";
import { createAttribute } from "./createAttribute.js";
import { validateAttributeValues } from "./validateAttributeValues.js";

let database: TestDatabase;
let tenantId: string;
let priority: Awaited<ReturnType<typeof createAttribute>>;
let notes: Awaited<ReturnType<typeof createAttribute>>;

beforeAll(async () => {
  database = await createTestDatabase();
  tenantId = (await createTenant(database.db)).tenantId;
  priority = await createAttribute({ db: database.db }, appActor(tenantId), {
    name: "Priority",
    project: 10000,
    type: "select",
    options: [{ name: "High" }, { name: "Low" }],
  });
  notes = await createAttribute({ db: database.db }, appActor(tenantId), { name: "Notes", project: 10000, type: "string", options: [] });
});
afterAll(() => database.destroy());

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).body;
}

describe("custom field values of a requirement", () => {
  it("accepts an option of a select field and text of a standard field", async () => {
    const high = String(priority.options[0]?.attribute_option_id);
    const values = await validateAttributeValues({ db: database.db }, appActor(tenantId), 10000, {
      [priority.attribute_id]: high,
      [notes.attribute_id]: "  Reviewed by QA ",
    });
    expect(values).toEqual({ [priority.attribute_id]: high, [notes.attribute_id]: "Reviewed by QA" });
  });

  it("treats empty values as no value, even of a field that no longer exists", async () => {
    const values = await validateAttributeValues({ db: database.db }, appActor(tenantId), 10000, {
      [priority.attribute_id]: null,
      [notes.attribute_id]: "",
      999999: "",
    });
    expect(values).toEqual({});
  });

  it("refuses a select value that is not among the field's options", async () => {
    expect(
      await rejection(validateAttributeValues({ db: database.db }, appActor(tenantId), 10000, { [priority.attribute_id]: "999999" })),
    ).toEqual({ attributes: ["Priority: choose one of the field's options"] });
  });

  it("refuses fields of another project and of another site", async () => {
    expect(await rejection(validateAttributeValues({ db: database.db }, appActor(tenantId), 20000, { [notes.attribute_id]: "x" }))).toEqual(
      { attributes: [`Custom field ${notes.attribute_id} does not exist in this project`] },
    );
    const other = await createTenant(database.db);
    expect(
      await rejection(validateAttributeValues({ db: database.db }, appActor(other.tenantId), 10000, { [notes.attribute_id]: "x" })),
    ).toEqual({ attributes: [`Custom field ${notes.attribute_id} does not exist in this project`] });
  });
});
