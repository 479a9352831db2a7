import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createSignedInApp,
  createTenant,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";
import { uploadAttachment } from "../../../test/helpers/storage.js";
import { asJson } from "../../db/queryHelpers.js";
import { snapshotFromStored } from "../../db/requirements/index.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;
let nextProject = 10000;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
});
afterAll(() => ctx.destroy());

/** Each test works in a project of its own, so their baselines never meet. */
const newProject = () => ++nextProject;
const api = () => request(ctx.app);
const ok = <T>(res: request.Response, status = 200): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as T;
};

type Created = { requirement_id: number; revision: number };
type BaselineBody = { baseline_id: number; name: string; description: string; requirement_count: number; project: number };
type FrozenBody = { requirement_id: number; revision: number; name: string; description: string; [field: string]: unknown };
type DiffBody = {
  requirement_id: number;
  status: string;
  changed_fields: string[];
  baseline1: FrozenBody | null;
  baseline2: FrozenBody | null;
};

const newFolder = async (project: number, name: string, parent: number | null = null) =>
  ok<{ folder_id: number }>(
    await api().post("/api/folder").set("Authorization", auth).send({ name, parent_folder_id: parent, project }),
    201,
  ).folder_id;
const newRequirement = async (project: number, name: string, extra: Record<string, unknown> = {}) =>
  ok<Created>(
    await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name, requirement_type_id: types.SYS, project, ...extra }),
    201,
  );
const edit = async (requirementId: number, changes: Record<string, unknown>) =>
  ok<Created>(await api().put(`/api/requirement/${requirementId}`).set("Authorization", auth).send(changes));
const moveTo = async (folderId: number, requirementId: number) =>
  ok(
    await api()
      .post("/api/requirement/move/bulk")
      .set("Authorization", auth)
      .send({ parent_folder_id: folderId, requirements: [requirementId] }),
  );
const createBaseline = async (project: number, body: Record<string, unknown> = { select_all_requirements: true }) =>
  ok<BaselineBody>(
    await api()
      .post("/api/baseline")
      .set("Authorization", auth)
      .send({ name: "Baseline", project, ...body }),
    201,
  );
const revisionsOf = async (baselineId: number, project: number, query = "") =>
  ok<BaselineBody & { requirement_revisions: FrozenBody[] }>(
    await api().get(`/api/baseline/${baselineId}?atlassian_project_id=${project}${query}`).set("Authorization", auth),
  ).requirement_revisions;
const compare = async (project: number, first: number, second: number, query = "") =>
  ok<{ requirements: DiffBody[]; has_more: boolean }>(
    await api()
      .get(`/api/baseline/compare?atlassian_project_id=${project}&baseline1=${first}&baseline2=${second}${query}`)
      .set("Authorization", auth),
  );

describe("creating a baseline", () => {
  it("answers 201 with the baseline, baseline_id at the top level, and lists it newest first", async () => {
    const project = newProject();
    await newRequirement(project, "Braking distance");
    const res = await api()
      .post("/api/baseline")
      .set("Authorization", auth)
      .send({ name: " Release 1 ", description: "First release", project: String(project), select_all_requirements: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      baseline_id: expect.any(Number),
      name: "Release 1",
      description: "First release",
      created_at: expect.stringMatching(/Z$/),
      created_by: { account_id: "557058:test-user" },
      project,
      requirement_count: 1,
    });
    const second = await createBaseline(project, { name: "Release 2", select_all_requirements: true });

    const list = ok<{ baselines: BaselineBody[] }>(
      await api().get(`/api/baseline?atlassian_project_id=${project}`).set("Authorization", auth),
    );
    expect(list.baselines.map((baseline) => baseline.name)).toEqual(["Release 2", "Release 1"]);
    const lite = ok<BaselineBody>(
      await api().get(`/api/baseline/${second.baseline_id}/lite?atlassian_project_id=${project}`).set("Authorization", auth),
    );
    expect(lite).toEqual(second);
  });

  it("refuses a baseline without a name, and a scope that does not hold", async () => {
    const project = newProject();
    for (const name of [undefined, "", "   "]) {
      const res = await api().post("/api/baseline").set("Authorization", auth).send({ name, project, select_all_requirements: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: ["Required"] });
    }
    const noFolder = await api()
      .post("/api/baseline")
      .set("Authorization", auth)
      .send({ name: "F", project, select_from_parent_folder: true, select_from_parent_folder_id: 999999 });
    expect(noFolder.status).toBe(400);
    expect(noFolder.body).toEqual({ select_from_parent_folder_id: ["The folder does not exist in this project"] });
    const elsewhere = await newRequirement(newProject(), "Elsewhere");
    const foreign = await api()
      .post("/api/baseline")
      .set("Authorization", auth)
      .send({ name: "I", project, requirements: [elsewhere.requirement_id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ requirements: [`Requirement ${elsewhere.requirement_id} is not a requirement of this project`] });
    const list = ok<{ baselines: unknown[] }>(await api().get(`/api/baseline?atlassian_project_id=${project}`).set("Authorization", auth));
    expect(list.baselines).toEqual([]);
  });

  it("freezes every active requirement of the project with scope all, and nothing of another project", async () => {
    const project = newProject();
    const folder = await newFolder(project, "Area");
    const a = await newRequirement(project, "Top level");
    const b = await newRequirement(project, "In a folder", { parent_folder_id: folder });
    const gone = await newRequirement(project, "Deleted before");
    ok(
      await api()
        .post("/api/requirement/delete/bulk")
        .set("Authorization", auth)
        .send({ requirements: [gone.requirement_id] }),
    );
    await newRequirement(newProject(), "Another project");

    const baseline = await createBaseline(project);
    expect(baseline.requirement_count).toBe(2);
    const frozen = await revisionsOf(baseline.baseline_id, project);
    expect(frozen.map((r) => [r.requirement_id, r.name])).toEqual([
      [a.requirement_id, "Top level"],
      [b.requirement_id, "In a folder"],
    ]);
    expect(frozen[0]).toEqual({
      requirement_id: a.requirement_id,
      revision: 1,
      prefix: "SYS",
      display_id: null,
      name: "Top level",
      description: "",
      assigned_to: null,
      components: [],
      issues: [],
      status: null,
      contents: [],
      requirement_type_id: types.SYS,
      requirement_type: { requirement_type_id: types.SYS, name: "System", prefix: "SYS", level: 3 },
      linked_requirements: [],
      attachments: [],
      suspect_links: [],
    });
  });

  it("freezes a folder with everything below it at any depth, and not its siblings", async () => {
    const project = newProject();
    const top = await newFolder(project, "Top");
    const child = await newFolder(project, "Child", top);
    const grandchild = await newFolder(project, "Grandchild", child);
    const sibling = await newFolder(project, "Sibling");
    const siblingChild = await newFolder(project, "Sibling child", sibling);
    const inTop = await newRequirement(project, "In top", { parent_folder_id: top });
    const inGrandchild = await newRequirement(project, "In grandchild", { parent_folder_id: grandchild });
    await newRequirement(project, "In sibling", { parent_folder_id: sibling });
    await newRequirement(project, "In sibling child", { parent_folder_id: siblingChild });
    await newRequirement(project, "At the top level");

    const fromTop = await createBaseline(project, { select_from_parent_folder: true, select_from_parent_folder_id: top });
    expect((await revisionsOf(fromTop.baseline_id, project)).map((r) => r.requirement_id)).toEqual([
      inTop.requirement_id,
      inGrandchild.requirement_id,
    ]);
    const fromChild = await createBaseline(project, { select_from_parent_folder: true, select_from_parent_folder_id: String(child) });
    expect((await revisionsOf(fromChild.baseline_id, project)).map((r) => r.name)).toEqual(["In grandchild"]);
  });

  it("freezes exactly the requirements chosen individually", async () => {
    const project = newProject();
    const a = await newRequirement(project, "A");
    await newRequirement(project, "B");
    const c = await newRequirement(project, "C");
    const baseline = await createBaseline(project, {
      requirements: [c.requirement_id, { requirement_id: a.requirement_id }, a.requirement_id],
    });
    expect(baseline.requirement_count).toBe(2);
    expect((await revisionsOf(baseline.baseline_id, project)).map((r) => r.name)).toEqual(["A", "C"]);
  });

  it("answers an empty project's baseline with no requirements", async () => {
    const project = newProject();
    const baseline = await createBaseline(project);
    expect(baseline.requirement_count).toBe(0);
    expect(await revisionsOf(baseline.baseline_id, project)).toEqual([]);
  });
});

describe("a baseline never changes", () => {
  it("whatever happens to its requirements: edits, moves, unlinks, attachment removal, deletes of requirement, folder and type", async () => {
    const project = newProject();
    const folder = await newFolder(project, "Doomed folder");
    const otherFolder = await newFolder(project, "Destination");
    const ownType = ok<{ requirement_type_id: number }>(
      await api().post("/api/requirement/type").set("Authorization", auth).send({ name: "Doomed type", prefix: "DT", level: 3 }),
      201,
    ).requirement_type_id;
    const upper = await newRequirement(project, "Upper", { requirement_type_id: types.SR });
    const file = await uploadAttachment(ctx, auth, "spec.txt", "text/plain", "v1");
    const main = await newRequirement(project, "Main", {
      description: "Original text",
      issues: ["10001"],
      components: ["10100"],
      status: "1",
      assigned_to: "557058:alice",
      requirements: [upper.requirement_id],
    });
    ok(
      await api()
        .patch(`/api/requirement/${main.requirement_id}`)
        .set("Authorization", auth)
        .send({ attachments: [{ original_file_name: "spec.txt", uuid_file_name: file.uuid }] }),
    );
    const inFolder = await newRequirement(project, "In doomed folder", { parent_folder_id: folder });
    const ofType = await newRequirement(project, "Of doomed type", { requirement_type_id: ownType });
    const mover = await newRequirement(project, "Mover", { parent_folder_id: folder });

    const baseline = await createBaseline(project);
    const before = await revisionsOf(baseline.baseline_id, project);
    expect(before.map((r) => r.requirement_id)).toEqual([upper, main, inFolder, ofType, mover].map((r) => r.requirement_id));
    expect(before.find((r) => r.requirement_id === main.requirement_id)).toMatchObject({
      name: "Main",
      issues: [{ atlassian_issue_id: "10001" }],
      linked_requirements: [expect.objectContaining({ requirement_id: upper.requirement_id })],
      attachments: [{ original_file_name: "spec.txt", uuid_file_name: file.uuid }],
    });

    await edit(main.requirement_id, { name: "Main renamed", description: "New text", status: "2", assigned_to: null, components: [] });
    await moveTo(otherFolder, mover.requirement_id);
    await edit(main.requirement_id, { name: "Main renamed", issues: [], linked_requirements: [] });
    ok(await api().patch(`/api/requirement/${main.requirement_id}`).set("Authorization", auth).send({ attachments: [] }));
    ok(
      await api()
        .post("/api/requirement/delete/bulk")
        .set("Authorization", auth)
        .send({ requirements: [upper.requirement_id] }),
    );
    ok(await api().delete(`/api/folder/${folder}`).set("Authorization", auth));
    ok(
      await api()
        .post("/api/requirement/delete/bulk")
        .set("Authorization", auth)
        .send({ requirements: [ofType.requirement_id] }),
    );
    ok(await api().delete(`/api/requirement/type/${ownType}`).set("Authorization", auth));

    expect(await revisionsOf(baseline.baseline_id, project)).toEqual(before);
    expect(
      ok<{ requirement_count: number }>(await api().get(`/api/baseline/${baseline.baseline_id}/lite`).set("Authorization", auth))
        .requirement_count,
    ).toBe(5);
    // The live requirements did change: a new baseline sees the two that are left, as they are now.
    const after = await revisionsOf((await createBaseline(project)).baseline_id, project);
    expect(after.map((r) => r.name)).toEqual(["Main renamed", "Mover"]);
  });
});

describe("comparing two baselines", () => {
  it("classifies added, removed (a requirement deleted in between) and changed, hiding unchanged unless asked", async () => {
    const project = newProject();
    const kept = await newRequirement(project, "Kept");
    const renamed = await newRequirement(project, "Old name", { description: "The pump stops" });
    const deleted = await newRequirement(project, "Deleted later");
    const movedOnly = await newRequirement(project, "Moved only");
    const first = await createBaseline(project);

    await edit(renamed.requirement_id, { name: "New name", description: "The pump stops at once" });
    ok(
      await api()
        .post("/api/requirement/delete/bulk")
        .set("Authorization", auth)
        .send({ requirements: [deleted.requirement_id] }),
    );
    const destination = await newFolder(project, "Elsewhere");
    await moveTo(destination, movedOnly.requirement_id);
    const added = await newRequirement(project, "Added later");
    const second = await createBaseline(project);

    const diff = await compare(project, first.baseline_id, second.baseline_id);
    expect(diff.has_more).toBe(false);
    expect(diff.requirements.map((r) => [r.requirement_id, r.status, r.changed_fields])).toEqual([
      [renamed.requirement_id, "changed", ["name", "description"]],
      [deleted.requirement_id, "removed", []],
      [added.requirement_id, "added", []],
    ]);
    const change = diff.requirements[0];
    expect(change?.baseline1).toMatchObject({ name: "Old name", description: "The pump stops" });
    expect(change?.baseline2).toMatchObject({ name: "New name", description: "The pump stops at once" });
    expect(diff.requirements[1]?.baseline2).toBeNull();
    expect(diff.requirements[2]?.baseline1).toBeNull();

    const all = await compare(project, first.baseline_id, second.baseline_id, "&include_unchanged=true");
    expect(all.requirements.map((r) => [r.requirement_id, r.status])).toEqual([
      [kept.requirement_id, "unchanged"],
      [renamed.requirement_id, "changed"],
      [deleted.requirement_id, "removed"],
      [movedOnly.requirement_id, "unchanged"],
      [added.requirement_id, "added"],
    ]);
    expect(all.requirements[0]?.baseline1).toEqual(all.requirements[0]?.baseline2);
  });

  it("names each compared field that changed", async () => {
    const project = newProject();
    const upper = await newRequirement(project, "Upper", { requirement_type_id: types.SR });
    const lower = await newRequirement(project, "Lower", { requirement_type_id: types.SW });
    const subject = await newRequirement(project, "Subject");
    const file = await uploadAttachment(ctx, auth, "a.txt", "text/plain", "a");
    const changes: [string, Record<string, unknown>][] = [
      ["name", { name: "Subject 2" }],
      ["description", { description: "Now described" }],
      ["assigned_to", { assigned_to: "557058:bob" }],
      ["status", { status: "3" }],
      ["components", { components: ["10100", "10101"] }],
      ["issues", { issues: ["10007"] }],
      ["contents", { contents: ["98304"] }],
      ["linked_requirements", { linked_requirements: [upper.requirement_id] }],
      ["linked_requirements", { linked_requirements: [] }],
      ["requirement_type_id", { requirement_type_id: types.BR }],
      ["attachments", { attachments: [{ original_file_name: "a.txt", uuid_file_name: file.uuid }] }],
    ];
    let name = "Subject";
    for (const [field, change] of changes) {
      const before = await createBaseline(project, { requirements: [subject.requirement_id] });
      if (typeof change.name === "string") name = change.name;
      await edit(subject.requirement_id, { name, ...change });
      const after = await createBaseline(project, { requirements: [subject.requirement_id] });
      const diff = await compare(project, before.baseline_id, after.baseline_id);
      // A type change makes the issue and page links it keeps suspect (issue 34).
      const compared = field === "requirement_type_id" ? [field, "suspect_links"] : [field];
      expect({ field, diff: diff.requirements.map((r) => [r.status, r.changed_fields]) }).toEqual({
        field,
        diff: [["changed", compared]],
      });
    }
    // Renaming a linked requirement changes none of the fields of the requirement that links to it:
    // only its link to the renamed one turns suspect.
    await edit(subject.requirement_id, { name, requirement_type_id: types.SYS, linked_requirements: [lower.requirement_id] });
    const before = await createBaseline(project, { requirements: [subject.requirement_id] });
    await edit(lower.requirement_id, { name: "Lower renamed" });
    const after = await createBaseline(project, { requirements: [subject.requirement_id] });
    expect((await compare(project, before.baseline_id, after.baseline_id)).requirements.map((r) => [r.status, r.changed_fields])).toEqual([
      ["changed", ["suspect_links"]],
    ]);
  });

  it("reads a revision stored whole, as rows were before the stored form, like one stored without its empty lists", async () => {
    const project = newProject();
    const subject = await newRequirement(project, "Subject", { description: "Stops the pump", components: ["10100"], status: "3" });
    const revisionRow = () =>
      ctx.deps
        .db("requirement_revisions")
        .where({ tenant_id: tenant.tenantId, requirement_id: subject.requirement_id, revision: subject.revision });
    const stored = (await revisionRow().first("snapshot")).snapshot;
    const kept = Object.keys(asJson<object>(stored, {}));
    expect(kept).toEqual(expect.arrayContaining(["name", "description", "components", "status", "requirement_type"]));
    for (const leftOut of [
      "requirement_id",
      "prefix",
      "requirement_type_id",
      "issues",
      "contents",
      "linked_requirements",
      "attachments",
      "attributes",
      "deleted",
    ]) {
      expect(kept).not.toContain(leftOut);
    }
    const first = await createBaseline(project, { requirements: [subject.requirement_id] });
    const asStored = await revisionsOf(first.baseline_id, project);

    await revisionRow().update({ snapshot: JSON.stringify(snapshotFromStored(stored, subject.requirement_id)) });
    expect(await revisionsOf(first.baseline_id, project)).toEqual(asStored);
    const destination = await newFolder(project, "Elsewhere");
    await moveTo(destination, subject.requirement_id);
    const second = await createBaseline(project, { requirements: [subject.requirement_id] });
    const diff = await compare(project, first.baseline_id, second.baseline_id, "&include_unchanged=true");
    expect(diff.requirements.map((r) => [r.status, r.changed_fields])).toEqual([["unchanged", []]]);
    expect({ ...diff.requirements[0]?.baseline1, revision: 0 }).toEqual({ ...diff.requirements[0]?.baseline2, revision: 0 });
    expect(diff.requirements[0]?.baseline1).toMatchObject({ prefix: "SYS", components: [{ atlassian_component_id: "10100" }], issues: [] });
  });

  it("pages the differences in requirement id order", async () => {
    const project = newProject();
    const first = await createBaseline(project);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await newRequirement(project, `R${i}`)).requirement_id);
    const second = await createBaseline(project);
    const pages: number[][] = [];
    let offset = 0;
    for (;;) {
      const page = await compare(project, first.baseline_id, second.baseline_id, `&limit=3&offset=${offset}`);
      pages.push(page.requirements.map((r) => r.requirement_id));
      if (!page.has_more) break;
      offset += 3;
    }
    expect(pages).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    const bad = await api()
      .get(`/api/baseline/compare?atlassian_project_id=${project}&baseline1=${first.baseline_id}&limit=0`)
      .set("Authorization", auth);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(["baseline2", "limit"]);
  });
});

describe("paging a baseline's requirements", () => {
  it("answers limit requirements from offset, in id order", async () => {
    const project = newProject();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newRequirement(project, `P${i}`)).requirement_id);
    const baseline = await createBaseline(project);
    expect((await revisionsOf(baseline.baseline_id, project, "&limit=2")).map((r) => r.requirement_id)).toEqual(ids.slice(0, 2));
    expect((await revisionsOf(baseline.baseline_id, project, "&limit=2&offset=2")).map((r) => r.requirement_id)).toEqual(ids.slice(2, 4));
    expect((await revisionsOf(baseline.baseline_id, project, "&limit=2&offset=4")).map((r) => r.requirement_id)).toEqual(ids.slice(4));
    const tooMany = await api().get(`/api/baseline/${baseline.baseline_id}?limit=5001`).set("Authorization", auth);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ limit: ["Must be at most 5000"] });
  });
});

describe("deleting and isolation", () => {
  it("deletes a baseline: it reads 404 afterwards and leaves the list", async () => {
    const project = newProject();
    await newRequirement(project, "Kept");
    const baseline = await createBaseline(project);
    const res = await api().delete(`/api/baseline/${baseline.baseline_id}`).set("Authorization", auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ baseline_id: baseline.baseline_id });
    for (const path of [`/api/baseline/${baseline.baseline_id}`, `/api/baseline/${baseline.baseline_id}/lite`]) {
      const read = await api().get(path).set("Authorization", auth);
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ Result: "Baseline not found" });
    }
    expect((await api().delete(`/api/baseline/${baseline.baseline_id}`).set("Authorization", auth)).status).toBe(404);
    const list = ok<{ baselines: unknown[] }>(await api().get(`/api/baseline?atlassian_project_id=${project}`).set("Authorization", auth));
    expect(list.baselines).toEqual([]);
  });

  it("keeps another project's baseline out of the list and out of reach by that project", async () => {
    const project = newProject();
    const other = newProject();
    const mine = await createBaseline(project);
    const theirs = await createBaseline(other);
    const list = ok<{ baselines: BaselineBody[] }>(
      await api().get(`/api/baseline?atlassian_project_id=${project}`).set("Authorization", auth),
    );
    expect(list.baselines.map((b) => b.baseline_id)).toEqual([mine.baseline_id]);
    expect((await api().get(`/api/baseline/${theirs.baseline_id}?atlassian_project_id=${project}`).set("Authorization", auth)).status).toBe(
      404,
    );
    const mixed = await api()
      .get(`/api/baseline/compare?atlassian_project_id=${project}&baseline1=${mine.baseline_id}&baseline2=${theirs.baseline_id}`)
      .set("Authorization", auth);
    expect(mixed.status).toBe(404);
  });

  it("never lists, reads, compares or deletes another site's baseline", async () => {
    const project = newProject();
    await newRequirement(project, "Ours");
    const ours = await createBaseline(project);
    const otherSite = await createTenant(ctx.deps.db);
    const theirAuth = await bearer(ctx, otherSite);
    const list = await api().get(`/api/baseline?atlassian_project_id=${project}`).set("Authorization", theirAuth);
    expect(list.body).toEqual({ baselines: [], offset: 0, limit: 500, has_more: false });
    for (const path of [
      `/api/baseline/${ours.baseline_id}`,
      `/api/baseline/${ours.baseline_id}/lite`,
      `/api/baseline/compare?atlassian_project_id=${project}&baseline1=${ours.baseline_id}&baseline2=${ours.baseline_id}`,
    ]) {
      expect((await api().get(path).set("Authorization", theirAuth)).status).toBe(404);
    }
    expect((await api().delete(`/api/baseline/${ours.baseline_id}`).set("Authorization", theirAuth)).status).toBe(404);
    expect((await revisionsOf(ours.baseline_id, project)).map((r) => r.name)).toEqual(["Ours"]);
    // Their own individual scope cannot reach our requirements either.
    const [ourRequirement] = await revisionsOf(ours.baseline_id, project);
    const theirs = await api()
      .post("/api/baseline")
      .set("Authorization", theirAuth)
      .send({ name: "Theirs", project, requirements: [ourRequirement?.requirement_id] });
    expect(theirs.status).toBe(400);
    expect((await api().get("/api/baseline?atlassian_project_id=1").set("Authorization", "Bearer nope")).status).toBe(401);
  });
});

type BadRequest = [method: "get" | "post" | "delete", path: string, body: unknown, status: number, error: Record<string, unknown>];

/** Malformed baseline requests: each gets its own status and the spec's error body, never a 500. */
const badRequests: BadRequest[] = [
  ["get", "/api/baseline", undefined, 400, { atlassian_project_id: ["Required"] }],
  ["get", "/api/baseline?atlassian_project_id=x", undefined, 400, { atlassian_project_id: ["Must be a number"] }],
  ["get", "/api/baseline/99999999", undefined, 404, { Result: "Baseline not found" }],
  ["get", "/api/baseline/99999999/lite", undefined, 404, { Result: "Baseline not found" }],
  [
    "get",
    "/api/baseline/compare?atlassian_project_id=10000&baseline1=abc&baseline2=1",
    undefined,
    400,
    { baseline1: ["Must be a number"] },
  ],
  [
    "get",
    "/api/baseline/compare?atlassian_project_id=10000&baseline1=99999998&baseline2=99999999",
    undefined,
    404,
    { Result: "Baseline not found" },
  ],
  ["post", "/api/baseline", "not an object", 400, { name: ["Required"], project: ["Required"] }],
  ["post", "/api/baseline", { name: "X", project: "ten" }, 400, { project: ["Must be a number"] }],
  [
    "post",
    "/api/baseline",
    { name: "X", project: 10000, select_from_parent_folder: true },
    400,
    { select_from_parent_folder_id: ["Required"] },
  ],
  ["post", "/api/baseline", { name: "X", project: 10000, requirements: [] }, 400, { requirements: ["Select at least one requirement"] }],
  ["delete", "/api/baseline/99999999", undefined, 404, { Result: "Baseline not found" }],
  ["get", "/api/baseline/1?offset=-1", undefined, 400, { offset: ["Must be at least 0"] }],
  [
    "post",
    "/api/baseline",
    { name: "X", project: 10000, select_all_requirements: "maybe" },
    400,
    { select_all_requirements: ["Must be true or false"] },
  ],
  [
    "post",
    "/api/baseline",
    { name: "X", project: 10000, select_from_parent_folder: true, select_from_parent_folder_id: "x" },
    400,
    { select_from_parent_folder_id: ["Must be a number"] },
  ],
  ["post", "/api/baseline", { name: "X", project: 10000, requirements: ["a"] }, 400, { "requirements.0": ["Must be a number"] }],
];

describe("bad input", () => {
  it.each(badRequests)("%s %s %j answers its own status and the spec's error body", async (method, path, body, status, error) => {
    const call = api()[method](path).set("Authorization", auth);
    const res = body === undefined ? await call : await call.send(body as object);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: error });
  });
});
