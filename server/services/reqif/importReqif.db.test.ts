import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReqifImportResult } from "../../../common/schemas/reqif.js";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { putImportFile } from "../../../test/helpers/csvImport.js";
import { importReqif, projectTree, reqifFixture, reqifFixtureNames, type TreeNode } from "../../../test/helpers/reqif.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let nextProject = 41000;

beforeAll(async () => {
  ctx = await createTestApp({}, { jobs: { work: true } });
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
});
afterAll(() => ctx.destroy());

const countOf = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
const requirementsIn = (nodes: TreeNode[]): number =>
  nodes.reduce((sum, node) => sum + ("requirement" in node ? 1 : requirementsIn(node.children)), 0);
const foldersIn = (nodes: TreeNode[]): number =>
  nodes.reduce((sum, node) => sum + ("folder" in node ? 1 + foldersIn(node.children) : 0), 0);

async function importFixture(name: string, project = nextProject++) {
  const outcome = await importReqif(ctx, tenant.tenantId, auth, reqifFixture(name), {
    atlassian_project_id: project,
    parent_folder_id: null,
    original_file_name: name,
  });
  expect(outcome.error).toBeNull();
  expect(outcome.status).toBe("finished");
  return { project, result: outcome.result as ReqifImportResult, tree: await projectTree(ctx.deps.db, tenant.tenantId, project) };
}

/** What each real file holds, counted by hand from the file: folders are its specifications and the entries with children. */
const EXPECTED: Record<string, { folders: number; notImported: number }> = {
  "doors-04.reqif": { folders: 0, notImported: 0 },
  // Both hierarchy entries show objects of another module; the one with a child still becomes its folder.
  "doors-06.reqif": { folders: 2, notImported: 2 },
  "eclipse-rmf-tc1000.reqif": { folders: 1, notImported: 0 },
  "enterprise-architect-01.reqif": { folders: 2, notImported: 2 },
  "enum-multiple.reqif": { folders: 0, notImported: 0 },
  "polarion-01.reqif": { folders: 22, notImported: 0 },
  "relation-basic.reqif": { folders: 0, notImported: 0 },
  "reqif-studio-01.reqif": { folders: 38, notImported: 1 },
  "with-attachment.reqifz": { folders: 1, notImported: 0 },
  "xhtml-attribute.reqif": { folders: 0, notImported: 0 },
};

describe("importing the real tools' ReqIF files", () => {
  it("covers every shared sample", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(reqifFixtureNames());
  });

  it.each(reqifFixtureNames())("%s imports with every object, its hierarchy and every relation accounted for", async (name) => {
    const text = name.endsWith(".reqifz") ? "" : reqifFixture(name).toString("utf8");
    const objects = name.endsWith(".reqifz") ? 2 : countOf(text, /<SPEC-OBJECT\s/g);
    const relations = countOf(text, /<SPEC-RELATION\s/g);
    const { result, tree } = await importFixture(name);
    expect(result.requirements_created).toBe(objects);
    expect(requirementsIn(tree)).toBe(objects);
    expect(result.folders_created).toBe(EXPECTED[name]?.folders);
    expect(foldersIn(tree)).toBe(EXPECTED[name]?.folders);
    expect(result.links_created + result.relations_skipped.length).toBe(relations);
    expect(result.not_imported).toHaveLength(EXPECTED[name]?.notImported ?? -1);
    for (const entry of [...result.relations_skipped, ...result.not_imported]) expect(entry.reason).toMatch(/^Line \d+: /);
  });

  it("keeps ReqIF Studio's hierarchy: chapters become folders that also hold the chapter's own text", async () => {
    const { tree, result } = await importFixture("reqif-studio-01.reqif");
    const [specification] = tree;
    expect(specification && "folder" in specification && specification.folder).toBe("...Anonymized...");
    const chapter = specification && "folder" in specification ? specification.children.find((node) => "folder" in node) : undefined;
    // The chapter's own object is a requirement of the same name inside the chapter's folder.
    expect(chapter && "folder" in chapter && chapter.children).toContainEqual({
      requirement: chapter && "folder" in chapter ? chapter.folder : "",
    });
    // Its relations join requirements of one type (one level): the level rule keeps them from being links, each with its reason.
    expect(result.links_created).toBe(0);
    expect(result.relations_skipped).toHaveLength(14);
    expect(result.relations_skipped[0]?.reason).toMatch(/one level apart/);
  });

  it("keeps XHTML as safe rich text, without the file's styles", async () => {
    const { project } = await importFixture("xhtml-attribute.reqif");
    const [row] = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: project }).select("description");
    expect(row.description).toContain("<p>Delay <span>&lt;= 5s</span></p>");
    expect(row.description).not.toContain("style");
  });

  it("keeps a multi-value enumeration's values joined, and a single-value one as a select field's option", async () => {
    const multi = await importFixture("enum-multiple.reqif");
    const [row] = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: multi.project }).select("description");
    expect(row.description).toMatch(/Yellow.*, .*Red.*, .*Green/);

    const ea = await importFixture("enterprise-architect-01.reqif");
    const field = await ctx.deps
      .db("attributes")
      .where({ tenant_id: tenant.tenantId, project_id: ea.project, name: "FUNC-REQ-STATUS" })
      .first();
    expect(field?.type).toBe("select");
    const values = await ctx.deps
      .db("requirement_attribute_values as v")
      .join("attribute_options as o", function () {
        this.on("o.tenant_id", "v.tenant_id").andOn(ctx.deps.db.raw("o.attribute_option_id::text = v.value"));
      })
      .where({ "v.tenant_id": tenant.tenantId, "v.attribute_id": field?.attribute_id })
      .select("o.name");
    // Both functional requirements are Proposed.
    expect(values.map((value) => value.name)).toEqual(["Proposed", "Proposed"]);
  });

  it("puts a .reqifz's embedded file on a requirement as an attachment, leaving out macOS metadata", async () => {
    const { project } = await importFixture("with-attachment.reqifz");
    const files = await ctx.deps
      .db("attachments as a")
      .join("requirements as r", function () {
        this.on("r.tenant_id", "a.tenant_id").andOn("r.requirement_id", "a.requirement_id");
      })
      .where({ "a.tenant_id": tenant.tenantId, "r.project_id": project, "a.operation": "attachment" })
      .select("a.original_file_name");
    expect(files.map((file) => file.original_file_name)).toEqual(["Yin_yang.svg"]);
  });

  it("updates on a second import of the same file, as normal revisions, without duplicating anything", async () => {
    const first = await importFixture("polarion-01.reqif");
    const again = await importFixture("polarion-01.reqif", first.project);
    expect(again.result).toMatchObject({ requirements_created: 0, requirements_updated: 101, folders_created: 0 });
    expect(again.tree).toEqual(first.tree);
  });
});

describe("POST /api/import-reqif/preview", () => {
  it("tells what the file holds before it is imported", async () => {
    const fileName = await putImportFile(ctx.deps, tenant.tenantId, reqifFixture("reqif-studio-01.reqif"), "studio.reqif");
    const res = await request(ctx.app).post("/api/import-reqif/preview").set("Authorization", auth).send({ file_name: fileName });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object_count: 137, relation_count: 14 });
    expect(res.body.specifications).toEqual([{ identifier: expect.any(String), long_name: "...Anonymized...", object_count: 138 }]);
    expect(res.body.spec_object_types).toEqual([
      {
        identifier: "_gFhrWmojEeuExICsU7Acmg",
        long_name: "Requirement Type",
        attribute_definitions: [
          { identifier: "_gFhrW2ojEeuExICsU7Acmg", long_name: "ReqIF.ForeignID", datatype: "STRING" },
          { identifier: "_gFhrXGojEeuExICsU7Acmg", long_name: "ReqIF.ChapterName", datatype: "XHTML" },
          { identifier: "_gFhrXWojEeuExICsU7Acmg", long_name: "ReqIF.Text", datatype: "XHTML" },
          { identifier: "_aqZG4GxpEeuaU7fHySy8Bw", long_name: "NOTES", datatype: "STRING" },
        ],
      },
    ]);
  });

  it("reads a .reqifz like a .reqif", async () => {
    const fileName = await putImportFile(ctx.deps, tenant.tenantId, reqifFixture("with-attachment.reqifz"), "a.reqifz");
    const res = await request(ctx.app).post("/api/import-reqif/preview").set("Authorization", auth).send({ file_name: fileName });
    expect(res.body).toMatchObject({ object_count: 2, relation_count: 0 });
  });

  it("refuses a file that is not ReqIF on file_name", async () => {
    const fileName = await putImportFile(ctx.deps, tenant.tenantId, "Name,ID\nPump,P-1\n", "not.reqif");
    const res = await request(ctx.app).post("/api/import-reqif/preview").set("Authorization", auth).send({ file_name: fileName });
    expect(res.status).toBe(400);
    expect(res.body.file_name[0]).toMatch(/^The file is not a ReqIF file we can read: Line \d+: the file is not ReqIF/);
  });

  it("does not read another site's upload", async () => {
    const other = await createTenant(ctx.deps.db);
    const fileName = await putImportFile(ctx.deps, other.tenantId, reqifFixture("doors-04.reqif"), "theirs.reqif");
    const res = await request(ctx.app).post("/api/import-reqif/preview").set("Authorization", auth).send({ file_name: fileName });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ file_name: ["The file was not found. Upload it again."] });
  });
});
