import request from "supertest";
import { appActor } from "../../services/context.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTACHMENT_BYTES } from "../../../common/schemas/storage.js";
import {
  bearer,
  createSignedInApp,
  createTenant,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";
import { uploadAttachment } from "../../../test/helpers/storage.js";
import { queuedJobs } from "../../../test/helpers/jobs.js";
import { requirementSavedJob } from "../../jobs/requirementSavedJob.js";
import { seedDefaultRequirementTypes } from "../../services/requirementTypes/seedDefaultRequirementTypes.js";
import { ATTACHMENT_NOT_UPLOADED_MESSAGE } from "../../services/storage/verifyUploadedAttachment.js";
import { storageKey } from "../../storage/objectStorage.js";
import { snapshotFromStored } from "../../db/requirements/index.js";

const PROJECT = 10000;
const ACCOUNT = "557058:test-user";
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp(ACCOUNT));
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
});
afterAll(() => ctx.destroy());

const api = () => request(ctx.app);
const create = async (body: Record<string, unknown>) => {
  const res = await api()
    .post("/api/requirement")
    .set("Authorization", auth)
    .send({ project: PROJECT, requirement_type_id: types.SYS, ...body });
  expect(res.status).toBe(201);
  return res.body;
};
const read = async (id: number) => (await api().get(`/api/requirement/${id}`).set("Authorization", auth)).body;
const revisionsOf = async (id: number) => (await api().get(`/api/requirement/${id}/revision`).set("Authorization", auth)).body.revisions;
const put = (id: number, body: Record<string, unknown>) => api().put(`/api/requirement/${id}`).set("Authorization", auth).send(body);
const patch = (id: number, body: Record<string, unknown>) => api().patch(`/api/requirement/${id}`).set("Authorization", auth).send(body);
const countRequirements = async () => {
  const row = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId }).count<{ count: number }[]>("* as count");
  return Number(row[0]?.count);
};

describe("creating a requirement", () => {
  it("answers the full detail in the spec's shape", async () => {
    const folder = await api().post("/api/folder").set("Authorization", auth).send({ name: "Specs", project: PROJECT });
    const res = await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({
        name: "Braking distance",
        description: "Stops within 40 m",
        requirement_type_id: String(types.SYS),
        project: PROJECT,
        parent_folder_id: folder.body.folder_id,
        display_id: "BRK-1",
        assigned_to: "557058:assignee",
        status: { atlassian_status_id: "10001" },
        components: ["10100", { atlassian_component_id: "10101" }],
        issues: [10200],
        contents: ["98765"],
        attributes: {},
        requirements: [],
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      requirement_id: expect.any(Number),
      display_id: "BRK-1",
      prefix: "SYS",
      name: "Braking distance",
      description: "Stops within 40 m",
      requirement_type: { requirement_type_id: types.SYS, name: "System", prefix: "SYS", level: 3 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      created_by: { account_id: ACCOUNT },
      assigned_to: { account_id: "557058:assignee" },
      status: { atlassian_status_id: "10001" },
      components: [{ atlassian_component_id: "10100" }, { atlassian_component_id: "10101" }],
      issues: [{ atlassian_issue_id: "10200" }],
      contents: [{ atlassian_content_id: "98765" }],
      linked_requirements_v2: [],
      attributes: {},
      attachments: [],
      parent_folder_id: folder.body.folder_id,
      project: PROJECT,
      revision: 1,
      suspect_links: [],
    });
    expect(await read(res.body.requirement_id)).toEqual(res.body);
    const revisions = await revisionsOf(res.body.requirement_id);
    expect(revisions).toEqual([
      {
        revision: 1,
        created_at: expect.any(String),
        account_id: ACCOUNT,
        action: "created",
        changed_fields: "name,requirement_type_id,display_id,description,assigned_to,status,components,issues,contents",
      },
    ]);
  });

  it("requires a name and a requirement type, and writes nothing without them", async () => {
    const before = await countRequirements();
    const res = await api().post("/api/requirement").set("Authorization", auth).send({ name: "  ", project: PROJECT });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["Required"], requirement_type_id: ["Required"] });
    expect(await countRequirements()).toBe(before);
  });

  it("keeps custom IDs unique within a project, but not across projects", async () => {
    await create({ name: "First", display_id: "DUP-1" });
    const before = await countRequirements();
    const res = await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name: "Second", display_id: "DUP-1", project: PROJECT, requirement_type_id: types.SYS });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ display_id: ["This ID is already used by another requirement in this project"] });
    expect(await countRequirements()).toBe(before);
    await create({ name: "Elsewhere", display_id: "DUP-1", project: 20000 });
  });

  it("links only requirements one level above or below, never itself", async () => {
    const business = await create({ name: "Business need", requirement_type_id: types.BR });
    const stakeholder = await create({ name: "Stakeholder need", requirement_type_id: types.SR, requirements: [business.requirement_id] });
    expect(stakeholder.linked_requirements_v2).toEqual([
      {
        requirement_id: business.requirement_id,
        prefix: "BR",
        display_id: null,
        name: "Business need",
        project: PROJECT,
        requirement_type_id: types.BR,
        level: 1,
      },
    ]);
    const other = await read(business.requirement_id);
    expect(other.linked_requirements_v2.map((l: { requirement_id: number }) => l.requirement_id)).toEqual([stakeholder.requirement_id]);
    expect(other.revision).toBe(2);
    expect((await revisionsOf(business.requirement_id))[0]).toMatchObject({
      revision: 2,
      action: "updated",
      changed_fields: "linked_requirements",
    });

    const twoApart = await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name: "Too far", project: PROJECT, requirement_type_id: types.SYS, requirements: [business.requirement_id] });
    expect(twoApart.status).toBe(400);
    expect(twoApart.body).toEqual({ requirements: ["Only requirements one level above or below (level 2 or 4) can be linked"] });

    const sameLevel = await put(stakeholder.requirement_id, {
      name: "Stakeholder need",
      linked_requirements: [business.requirement_id, (await create({ name: "Peer", requirement_type_id: types.SR })).requirement_id],
    });
    expect(sameLevel.status).toBe(400);
    expect(sameLevel.body.linked_requirements).toBeDefined();

    const self = await put(stakeholder.requirement_id, { name: "x", linked_requirements: [stakeholder.requirement_id] });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ linked_requirements: ["A requirement cannot be linked to itself"] });
  });

  it("links global requirements to project requirements, but not across two projects", async () => {
    const global = await create({ name: "Global need", requirement_type_id: types.BR, project: 0 });
    const linked = await create({ name: "Project need", requirement_type_id: types.SR, requirements: [global.requirement_id] });
    expect(linked.linked_requirements_v2).toHaveLength(1);
    const foreign = await create({ name: "Other project", requirement_type_id: types.BR, project: 20000 });
    const res = await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name: "Cross", project: PROJECT, requirement_type_id: types.SR, requirements: [foreign.requirement_id] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirements: ["Linked requirements must be in the same project or in Global Requirements"] });
  });
});

describe("editing a requirement", () => {
  it("saves the changes, records the changed fields and bumps the revision", async () => {
    const created = await create({ name: "Old name", description: "Old" });
    const res = await put(created.requirement_id, {
      ...created,
      name: "New name",
      description: "New",
      requirement_type_id: types.SW,
      revision: created.revision,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "New name", description: "New", prefix: "SW", revision: 2 });
    const revisions = await revisionsOf(created.requirement_id);
    expect(
      revisions.map((r: { revision: number; action: string; changed_fields: string }) => [r.revision, r.action, r.changed_fields]),
    ).toEqual([
      [2, "updated", "name,description,requirement_type_id"],
      [1, "created", "name,requirement_type_id,description"],
    ]);
  });

  it("answers 409 to a save that started from an older revision, and keeps the other save", async () => {
    const created = await create({ name: "Shared" });
    const first = await put(created.requirement_id, { name: "Alice's edit", revision: 1 });
    expect(first.status).toBe(200);
    const stale = await put(created.requirement_id, { name: "Bob's edit", revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      Result: "This requirement was changed by someone else since you opened it. Reload it to see their changes.",
    });
    expect((await read(created.requirement_id)).name).toBe("Alice's edit");
  });

  it("requires a name on edit", async () => {
    const created = await create({ name: "Named" });
    const res = await put(created.requirement_id, { name: "", revision: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["Required"] });
  });

  it("does not change the type while linked requirements exist", async () => {
    const high = await create({ name: "High", requirement_type_id: types.SR });
    const low = await create({ name: "Low", requirements: [high.requirement_id] });
    const res = await put(low.requirement_id, { name: "Low", requirement_type_id: types.SW });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirement_type_id: ["To edit the requirement type, remove any linked requirements below."] });

    const unlinked = await put(low.requirement_id, { name: "Low", linked_requirements: [] });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.linked_requirements_v2).toEqual([]);
    expect((await read(high.requirement_id)).linked_requirements_v2).toEqual([]);
    const retyped = await put(low.requirement_id, { name: "Low", requirement_type_id: types.SW });
    expect(retyped.status).toBe(200);
    expect(retyped.body.requirement_type.prefix).toBe("SW");
  });

  it("changes the type in the same save that removes every linked requirement, as the form sends it", async () => {
    const high = await create({ name: "High", requirement_type_id: types.SR });
    const low = await create({ name: "Low", requirements: [high.requirement_id] });
    const res = await put(low.requirement_id, { name: "Low", requirement_type_id: types.SW, linked_requirements: [] });
    expect(res.status).toBe(200);
    expect(res.body.requirement_type.prefix).toBe("SW");
    expect(res.body.linked_requirements_v2).toEqual([]);
    expect((await read(high.requirement_id)).linked_requirements_v2).toEqual([]);
    expect((await revisionsOf(low.requirement_id))[0]).toMatchObject({
      action: "updated",
      changed_fields: "requirement_type_id,linked_requirements",
    });
  });

  it("does not change the type while the save keeps a linked requirement, even one that fits the new type", async () => {
    const high = await create({ name: "High", requirement_type_id: types.SR });
    const low = await create({ name: "Low", requirements: [high.requirement_id] });
    const res = await put(low.requirement_id, {
      name: "Low",
      requirement_type_id: types.BR,
      linked_requirements: [high.requirement_id],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirement_type_id: ["To edit the requirement type, remove any linked requirements below."] });
    const unchanged = await read(low.requirement_id);
    expect(unchanged.requirement_type.prefix).toBe("SYS");
    expect(unchanged.linked_requirements_v2.map((l: { requirement_id: number }) => l.requirement_id)).toEqual([high.requirement_id]);
  });

  it("checks requirements linked in the same save as a type change against the new type's level", async () => {
    const high = await create({ name: "High", requirement_type_id: types.SR });
    const low = await create({ name: "Low", requirements: [high.requirement_id] });
    const stakeholder = await create({ name: "Fits only System", requirement_type_id: types.SR });
    const refused = await put(low.requirement_id, {
      name: "Low",
      requirement_type_id: types.SW,
      linked_requirements: [stakeholder.requirement_id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      linked_requirements: ["Only requirements one level above or below (level 3 or 5) can be linked"],
    });
    expect((await read(low.requirement_id)).requirement_type.prefix).toBe("SYS");

    const system = await create({ name: "Fits Software" });
    const res = await put(low.requirement_id, {
      name: "Low",
      requirement_type_id: types.SW,
      linked_requirements: [system.requirement_id],
    });
    expect(res.status).toBe(200);
    expect(res.body.requirement_type.prefix).toBe("SW");
    expect(res.body.linked_requirements_v2.map((l: { requirement_id: number }) => l.requirement_id)).toEqual([system.requirement_id]);
    expect((await read(high.requirement_id)).linked_requirements_v2).toEqual([]);
  });

  it("refuses a custom ID another requirement of the project has", async () => {
    await create({ name: "Holder", display_id: "TAKEN" });
    const mine = await create({ name: "Mine", display_id: "MINE" });
    const res = await put(mine.requirement_id, { name: "Mine", display_id: "TAKEN" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ display_id: ["This ID is already used by another requirement in this project"] });
    const same = await put(mine.requirement_id, { name: "Mine renamed", display_id: "MINE" });
    expect(same.status).toBe(200);
  });

  /** A file uploaded as the form does, as the attachment row a PATCH sends. */
  const uploaded = async (name: string, type: string) => ({
    original_file_name: name,
    uuid_file_name: (await uploadAttachment(ctx, auth, name, type, `${name} bytes`)).uuid,
  });

  it("keeps Global Requirements free of status, components and assignee, which only Jira projects have", async () => {
    const global = await create({ name: "Units are SI", project: 0 });
    const refused = await put(global.requirement_id, {
      name: "Units are SI",
      status: "3",
      components: ["10000"],
      assigned_to: "557058:alice",
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      status: ["Global Requirements have no status"],
      components: ["Global Requirements have no components"],
      assigned_to: ["Global Requirements have no assignee"],
    });
    const asTheFormSendsIt = await put(global.requirement_id, {
      name: "Units are SI (metric)",
      status: null,
      components: [],
      assigned_to: null,
    });
    expect(asTheFormSendsIt.status).toBe(200);
    expect(await read(global.requirement_id)).toMatchObject({
      name: "Units are SI (metric)",
      status: null,
      components: [],
      assigned_to: null,
    });
  });

  it("replaces the attachment list with PATCH and records it; a dropped file stays in storage for the history and still downloads", async () => {
    const created = await create({ name: "With files" });
    const one = await uploaded("spec.pdf", "application/pdf");
    const two = await uploaded("diagram.png", "image/png");
    const added = await patch(created.requirement_id, { attachments: [one, two] });
    expect(added.status).toBe(200);
    expect(added.body.attachments).toEqual([one, two]);
    expect((await read(created.requirement_id)).attachments).toEqual([one, two]);

    const removed = await patch(created.requirement_id, { attachments: [two] });
    expect(removed.body.attachments).toEqual([two]);
    expect(removed.body.revision).toBe(3);
    expect((await revisionsOf(created.requirement_id))[0]).toMatchObject({ action: "updated", changed_fields: "attachments" });
    expect(await ctx.deps.storage.head(storageKey(tenant.tenantId, "attachments", one.uuid_file_name))).toBeDefined();
    expect(await ctx.deps.storage.head(storageKey(tenant.tenantId, "attachments", two.uuid_file_name))).toBeDefined();
    const inHistory = await api().post("/api/sign-s3-get").set("Authorization", auth).send(one);
    expect(inHistory.status).toBe(200);
    expect(inHistory.body.original_file_name).toBe("spec.pdf");

    const thief = await create({ name: "Thief" });
    const stolen = await patch(thief.requirement_id, { attachments: [two] });
    expect(stolen.status).toBe(400);
  });

  it("refuses an attachment list built from a stale revision with 409, dropping and deleting nothing", async () => {
    const created = await create({ name: "Shared files" });
    const mineRow = await uploaded("mine.txt", "text/plain");
    const theirsRow = await uploaded("theirs.txt", "text/plain");
    const seen = (await read(created.requirement_id)).revision;
    const first = await patch(created.requirement_id, { attachments: [theirsRow], revision: seen });
    expect(first.status).toBe(200);

    const stale = await patch(created.requirement_id, { attachments: [mineRow], revision: seen });
    expect(stale.status).toBe(409);
    expect((await read(created.requirement_id)).attachments).toEqual([theirsRow]);
    expect(await ctx.deps.storage.head(storageKey(tenant.tenantId, "attachments", theirsRow.uuid_file_name))).toBeDefined();

    const merged = await patch(created.requirement_id, { attachments: [theirsRow, mineRow], revision: first.body.revision });
    expect(merged.status).toBe(200);
    expect(merged.body.attachments).toHaveLength(2);
    expect(merged.body.attachments).toEqual(expect.arrayContaining([theirsRow, mineRow]));
  });

  it("attaches only files that were really uploaded by this site, within 25 MB", async () => {
    const created = await create({ name: "Checked files" });
    const neverUploaded = await api()
      .post("/api/sign-s3-put")
      .set("Authorization", auth)
      .send({ operation: "attachment", original_file_name: "ghost.txt", file_type: "text/plain" });
    const ghost = { original_file_name: "ghost.txt", uuid_file_name: neverUploaded.body.uuid_file_name };
    const missing = await patch(created.requirement_id, { attachments: [ghost] });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ Result: ATTACHMENT_NOT_UPLOADED_MESSAGE });
    const viaPut = await put(created.requirement_id, { name: "Checked files", attachments: [ghost] });
    expect(viaPut.status).toBe(400);

    const big = await api()
      .post("/api/sign-s3-put")
      .set("Authorization", auth)
      .send({ operation: "attachment", original_file_name: "big.bin", file_type: "application/octet-stream" });
    const bigKey = storageKey(tenant.tenantId, "attachments", big.body.uuid_file_name);
    await ctx.deps.storage.putObject(bigKey, Buffer.alloc(MAX_ATTACHMENT_BYTES + 1), "application/octet-stream");
    const oversized = await patch(created.requirement_id, {
      attachments: [{ original_file_name: "big.bin", uuid_file_name: big.body.uuid_file_name }],
    });
    expect(oversized.status).toBe(400);
    expect(oversized.body).toEqual({ Result: "Error adding attachment: File size cannot exceed 25MB" });

    const other = await createTenant(ctx.deps.db);
    const theirs = await uploadAttachment(ctx, await bearer(ctx, other), "theirs.txt", "text/plain", "not yours");
    const foreign = await patch(created.requirement_id, {
      attachments: [{ original_file_name: "theirs.txt", uuid_file_name: theirs.uuid }],
    });
    expect(foreign.status).toBe(400);
    expect((await read(created.requirement_id)).attachments).toEqual([]);
    expect(await revisionsOf(created.requirement_id)).toHaveLength(1);
  });

  it("stores custom field values of the project and checks select options", async () => {
    const db = ctx.deps.db;
    const [text] = await db("attributes")
      .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, name: "Owner team", type: "string" })
      .returning("attribute_id");
    const [choice] = await db("attributes")
      .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, name: "Priority", type: "select" })
      .returning("attribute_id");
    const [high] = await db("attribute_options")
      .insert({ tenant_id: tenant.tenantId, attribute_id: choice.attribute_id, name: "High" })
      .returning("attribute_option_id");
    const [foreign] = await db("attributes")
      .insert({ tenant_id: tenant.tenantId, project_id: 20000, name: "Other", type: "string" })
      .returning("attribute_id");

    const created = await create({
      name: "Attributed",
      attributes: { [text.attribute_id]: "Brakes", [choice.attribute_id]: high.attribute_option_id },
    });
    expect(created.attributes).toEqual({
      [String(text.attribute_id)]: "Brakes",
      [String(choice.attribute_id)]: String(high.attribute_option_id),
    });

    const badOption = await put(created.requirement_id, { name: "Attributed", attributes: { [choice.attribute_id]: "999999" } });
    expect(badOption.status).toBe(400);
    expect(badOption.body).toEqual({ attributes: ["Priority: choose one of the field's options"] });
    const otherProject = await put(created.requirement_id, { name: "Attributed", attributes: { [foreign.attribute_id]: "x" } });
    expect(otherProject.status).toBe(400);
    expect(otherProject.body).toEqual({ attributes: [`Custom field ${foreign.attribute_id} does not exist in this project`] });
    const otherTenant = await createTenant(db);
    const [theirs] = await db("attributes")
      .insert({ tenant_id: otherTenant.tenantId, project_id: PROJECT, name: "Theirs", type: "string" })
      .returning("attribute_id");
    const otherSite = await put(created.requirement_id, { name: "Attributed", attributes: { [theirs.attribute_id]: "x" } });
    expect(otherSite.status).toBe(400);
    expect((await read(created.requirement_id)).attributes).toEqual(created.attributes);

    const cleared = await put(created.requirement_id, {
      name: "Attributed",
      attributes: { [text.attribute_id]: "", [choice.attribute_id]: high.attribute_option_id },
    });
    expect(cleared.body.attributes).toEqual({ [String(choice.attribute_id)]: String(high.attribute_option_id) });

    const deleted = await api().delete(`/api/attribute/${choice.attribute_id}`).set("Authorization", auth);
    expect(deleted.status).toBe(200);
    expect((await read(created.requirement_id)).attributes).toEqual({});
    expect(await db("requirement_attribute_values").where({ attribute_id: choice.attribute_id })).toEqual([]);
  });
});

describe("reading requirements", () => {
  it("lists requirements of several projects, of the global project, and those linked to an issue", async () => {
    const inProject = await create({ name: "Listed", project: 60000, issues: ["777"] });
    const global = await create({ name: "Listed globally", project: 0, requirement_type_id: types.BR });
    const res = await api().get("/api/requirement?atlassian_project_id=60000&atlassian_project_id=0").set("Authorization", auth);
    expect(res.status).toBe(200);
    const ids = res.body.requirements.map((r: { requirement_id: number }) => r.requirement_id);
    expect(ids).toContain(inProject.requirement_id);
    expect(ids).toContain(global.requirement_id);
    expect(res.body.requirements.find((r: { requirement_id: number }) => r.requirement_id === global.requirement_id)).toEqual({
      type: "requirement",
      requirement_id: global.requirement_id,
      display_id: null,
      prefix: "BR",
      name: "Listed globally",
      category: "HIGH_LEVEL",
      parent_folder_id: null,
      project: 0,
      requirement_type_id: types.BR,
      level: 1,
      has_suspect_links: false,
    });
    expect(res.body).toMatchObject({ offset: 0, limit: 1000, has_more: false });

    const byIssue = await api()
      .get("/api/requirement")
      .query({ atlassian_project_id: 60000, atlassian_issue_id: "777" })
      .set("Authorization", auth);
    expect(byIssue.body.requirements.map((r: { requirement_id: number }) => r.requirement_id)).toEqual([inProject.requirement_id]);

    const noProject = await api().get("/api/requirement").set("Authorization", auth);
    expect(noProject.status).toBe(400);
  });

  it("lists lite requirements by wiki content and by id, and maps ids to ID labels", async () => {
    const onPage = await create({ name: "On a page", contents: ["55555"], display_id: "PAGE-1" });
    const plain = await create({ name: "Plain" });
    const byContent = await api().get("/api/requirement/lite").query({ atlassian_content_id: "55555" }).set("Authorization", auth);
    expect(byContent.body.requirements.map((r: { requirement_id: number }) => r.requirement_id)).toEqual([onPage.requirement_id]);

    const all = await api().get("/api/requirement/lite").set("Authorization", auth);
    expect(all.body.requirements.map((r: { requirement_id: number }) => r.requirement_id)).toEqual(
      expect.arrayContaining([onPage.requirement_id, plain.requirement_id]),
    );
    const ofProject = await api().get("/api/requirement/lite").query({ atlassian_project_id: PROJECT }).set("Authorization", auth);
    expect(ofProject.body.requirements.length).toBeGreaterThan(2);

    const byId = await api()
      .post("/api/requirement/by-id/lite")
      .set("Authorization", auth)
      .send({ requirementIds: [plain.requirement_id, String(onPage.requirement_id), 99999999] });
    expect(byId.body.requirements.map((r: { name: string }) => r.name)).toEqual(["On a page", "Plain"]);

    const labels = await api()
      .post("/api/requirement/display_ids")
      .set("Authorization", auth)
      .send({ requirementIds: [onPage.requirement_id, plain.requirement_id] });
    expect(labels.body).toEqual({
      [onPage.requirement_id]: "SYS-PAGE-1",
      [plain.requirement_id]: `SYS-${plain.requirement_id}`,
    });
  });
});

describe("moving and deleting requirements", () => {
  it("moves many requirements in one go, and nothing when one cannot move", async () => {
    const target = (await api().post("/api/folder").set("Authorization", auth).send({ name: "Target", project: PROJECT })).body;
    const a = await create({ name: "Mover A" });
    const b = await create({ name: "Mover B" });
    const res = await api()
      .post("/api/requirement/move/bulk")
      .set("Authorization", auth)
      .send({ parent_folder_id: target.folder_id, requirements: [a.requirement_id, b.requirement_id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requirements: [a.requirement_id, b.requirement_id] });
    expect((await read(a.requirement_id)).parent_folder_id).toBe(target.folder_id);
    expect((await revisionsOf(b.requirement_id))[0]).toMatchObject({ action: "moved", changed_fields: "parent_folder_id" });

    const foreign = await create({ name: "Foreign", project: 20000 });
    const mixed = await api()
      .post("/api/requirement/move/bulk")
      .set("Authorization", auth)
      .send({ parent_folder_id: null, requirements: [a.requirement_id, foreign.requirement_id, 99999999] });
    expect(mixed.status).toBe(404);
    expect((await read(a.requirement_id)).parent_folder_id).toBe(target.folder_id);

    const crossProject = await api()
      .post("/api/requirement/move/bulk")
      .set("Authorization", auth)
      .send({ parent_folder_id: target.folder_id, requirements: [foreign.requirement_id] });
    expect(crossProject.status).toBe(400);
    expect(crossProject.body).toEqual({ parent_folder_id: ["Requirements can only move to a folder of their own project"] });

    const back = await api()
      .post("/api/requirement/move/bulk")
      .set("Authorization", auth)
      .send({ parent_folder_id: null, requirements: [a.requirement_id] });
    expect(back.status).toBe(200);
    expect((await read(a.requirement_id)).parent_folder_id).toBeNull();
  });

  it("deletes softly: the requirement leaves lists and links but its revisions keep its last state", async () => {
    const high = await create({ name: "Stays", requirement_type_id: types.SR });
    const doomed = await create({ name: "Goes", display_id: "GONE", requirements: [high.requirement_id], issues: ["10300"] });
    const res = await api()
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [doomed.requirement_id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requirements: [doomed.requirement_id] });

    expect((await api().get(`/api/requirement/${doomed.requirement_id}`).set("Authorization", auth)).status).toBe(404);
    expect((await read(high.requirement_id)).linked_requirements_v2).toEqual([]);
    const revisions = await revisionsOf(doomed.requirement_id);
    expect(revisions.map((r: { action: string }) => r.action)).toEqual(["deleted", "created"]);
    const [row] = await ctx.deps
      .db("requirement_revisions")
      .where({ tenant_id: tenant.tenantId, requirement_id: doomed.requirement_id, revision: 2 })
      .select("snapshot");
    expect(snapshotFromStored(row.snapshot, doomed.requirement_id)).toMatchObject({
      requirement_id: doomed.requirement_id,
      prefix: "SYS",
      display_id: "GONE",
      name: "Goes",
      description: "",
      assigned_to: null,
      components: [],
      issues: [{ atlassian_issue_id: "10300" }],
      status: null,
      contents: [],
      requirement_type_id: types.SYS,
      linked_requirements: [expect.objectContaining({ requirement_id: high.requirement_id })],
      attachments: [],
      deleted: true,
    });
    await create({ name: "Reuses the ID", display_id: "GONE" });
  });

  it("deletes nothing when one of the requirements does not exist", async () => {
    const kept = await create({ name: "Kept" });
    const res = await api()
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [kept.requirement_id, 99999999] });
    expect(res.status).toBe(404);
    expect((await read(kept.requirement_id)).name).toBe("Kept");
    const empty = await api().post("/api/requirement/delete/bulk").set("Authorization", auth).send({ requirements: [] });
    expect(empty.status).toBe(400);
  });
});

describe("side effects and isolation", () => {
  it("enqueues the notifications of creates, edits and deletes with the save, one per revision", async () => {
    await ctx.deps.db("customer_settings").insert({ tenant_id: tenant.tenantId, comment_on_associated_issues: true });
    const created = await create({ name: "Announced", issues: ["10400"], assigned_to: "557058:someone" });
    await put(created.requirement_id, { name: "Announced again" });
    await api()
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [created.requirement_id] });
    const events = (await queuedJobs(ctx.deps.db, requirementSavedJob, tenant.tenantId))
      .map((job) => job.data)
      .filter((event) => event.requirementId === created.requirement_id);
    expect(events.map((event) => [event.revision, event.before?.name, event.after?.name])).toEqual([
      [1, undefined, "Announced"],
      [2, "Announced", "Announced again"],
      [3, "Announced again", undefined],
    ]);
    expect(events[0]).toMatchObject({
      tenantId: tenant.tenantId,
      accountId: ACCOUNT,
      after: {
        requirementId: created.requirement_id,
        projectId: PROJECT,
        label: `SYS-${created.requirement_id}: Announced`,
        statusId: null,
        assignedTo: "557058:someone",
        issueIds: ["10400"],
      },
    });
  });

  it("lets another site see none of the requirements and touch none by id", async () => {
    const mine = await create({ name: "Private", contents: ["424242"], issues: ["10500"] });
    const otherTenant = await createTenant(ctx.deps.db);
    await seedDefaultRequirementTypes(ctx.deps, appActor(otherTenant.tenantId));
    const other = await bearer(ctx, otherTenant);
    const id = mine.requirement_id;

    expect((await api().get("/api/requirement").query({ atlassian_project_id: PROJECT }).set("Authorization", other)).body).toEqual({
      requirements: [],
      offset: 0,
      limit: 1000,
      has_more: false,
    });
    expect((await api().get("/api/requirement/lite").query({ atlassian_project_id: PROJECT }).set("Authorization", other)).body).toEqual({
      requirements: [],
      offset: 0,
      limit: 1000,
      has_more: false,
    });
    expect(
      (
        await api()
          .post("/api/requirement/by-id/lite")
          .set("Authorization", other)
          .send({ requirementIds: [id] })
      ).body,
    ).toEqual({
      requirements: [],
    });
    expect(
      (
        await api()
          .post("/api/requirement/display_ids")
          .set("Authorization", other)
          .send({ requirementIds: [id] })
      ).body,
    ).toEqual({});
    expect((await api().get(`/api/requirement/${id}`).set("Authorization", other)).status).toBe(404);
    expect((await api().get(`/api/requirement/${id}/revision`).set("Authorization", other)).status).toBe(404);
    expect((await api().put(`/api/requirement/${id}`).set("Authorization", other).send({ name: "Hijacked" })).status).toBe(404);
    expect((await api().patch(`/api/requirement/${id}`).set("Authorization", other).send({ attachments: [] })).status).toBe(404);
    expect(
      (
        await api()
          .post("/api/requirement/delete/bulk")
          .set("Authorization", other)
          .send({ requirements: [id] })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .post("/api/requirement/move/bulk")
          .set("Authorization", other)
          .send({ parent_folder_id: null, requirements: [id] })
      ).status,
    ).toBe(404);
    const otherTypes = (await api().get("/api/requirement/type").set("Authorization", other)).body.requirement_types;
    const link = await api()
      .post("/api/requirement")
      .set("Authorization", other)
      .send({ name: "Linker", project: PROJECT, requirement_type_id: otherTypes[1].requirement_type_id, requirements: [id] });
    expect(link.status).toBe(400);
    expect(await read(id)).toMatchObject({ name: "Private", revision: 1 });
  });
});
