import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import request from "supertest";
import yauzl from "yauzl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRichText } from "../../../common/richText.js";
import { CreateAttributeSchema } from "../../../common/schemas/attribute.js";
import type { ReqifImportResult } from "../../../common/schemas/reqif.js";
import { CreateRequirementSchema } from "../../../common/schemas/requirement.js";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { importReqif, jobOutcome, projectTree, REQIF_SCHEMA_FROM_ROOT, reqifFixture } from "../../../test/helpers/reqif.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { storageKey } from "../../storage/objectStorage.js";
import { createAttribute } from "../attributes/createAttribute.js";
import type { Actor } from "../context.js";
import { createFolder } from "../folders/createFolder.js";
import { createRequirement } from "../requirements/createRequirement.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";

const run = promisify(execFile);
let ctx: TestContext;
let tenant: TestTenant;
let actor: Actor;
let auth: string;
let nextProject = 52000;
let work: string;

beforeAll(async () => {
  ctx = await createTestApp({}, { jobs: { work: true } });
  tenant = await createTenant(ctx.deps.db);
  actor = { tenantId: tenant.tenantId, accountId: "557058:test-user" };
  auth = await bearer(ctx, tenant);
  await seedDefaultRequirementTypes(ctx.deps, actor);
  work = await mkdtemp(path.join(tmpdir(), "reqif-export-test-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await ctx.destroy();
});

/** Runs the export to its end and answers the stored file's bytes. */
async function exportReqif(body: Record<string, unknown>): Promise<{ bytes: Buffer; original: string }> {
  const started = await request(ctx.app).post("/api/requirement/export/reqif").set("Authorization", auth).send(body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const outcome = await jobOutcome(ctx, auth, started.body.job_id);
  expect(outcome.error).toBeNull();
  const { file_name } = outcome.result as { file_name: string };
  const signed = await request(ctx.app)
    .post("/api/sign-s3-get")
    .set("Authorization", auth)
    .send({ uuid_file_name: file_name, original_file_name: "x" });
  expect(signed.status).toBe(200);
  const stream = await ctx.deps.storage.getObject(storageKey(tenant.tenantId, "exports", file_name));
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return { bytes: Buffer.concat(parts), original: signed.body.original_file_name };
}

/** xmllint against the OMG schema, offline; answers its complaints (empty when the file is valid). */
async function schemaErrors(xml: Buffer): Promise<string> {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.reqif`);
  await writeFile(file, xml);
  try {
    await run("xmllint", ["--nonet", "--noout", "--schema", REQIF_SCHEMA_FROM_ROOT, file]);
    return "";
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
}

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const members = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const parts: Buffer[] = [];
    for await (const part of await zip.openReadStreamPromise(entry)) parts.push(part as Buffer);
    members.set(entry.fileName, Buffer.concat(parts));
  }
  return members;
}

/** What a person compares after a round trip: each requirement by folder path and name, with its fields and links. */
async function projectContent(projectId: number, rootFolderId: number | null) {
  const db = ctx.deps.db;
  const folders = await db("folders").where({ tenant_id: tenant.tenantId, project_id: projectId }).whereNull("deleted_at");
  const pathOf = (folderId: number | null): string[] => {
    if (folderId === null || folderId === rootFolderId) return [];
    const folder = folders.find((candidate) => Number(candidate.folder_id) === folderId);
    return folder ? [...pathOf(folder.parent_folder_id === null ? null : Number(folder.parent_folder_id)), folder.name] : ["?"];
  };
  const requirements = await db("requirements as r")
    .join("requirement_types as t", function () {
      this.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id");
    })
    .where({ "r.tenant_id": tenant.tenantId, "r.project_id": projectId })
    .whereNull("r.deleted_at")
    .select("r.requirement_id", "r.name", "r.display_id", "r.description", "r.parent_folder_id", "t.name as type");
  const values = await db("requirement_attribute_values as v")
    .join("attributes as a", function () {
      this.on("a.tenant_id", "v.tenant_id").andOn("a.attribute_id", "v.attribute_id");
    })
    .leftJoin("attribute_options as o", function () {
      this.on("o.tenant_id", "v.tenant_id").andOn(db.raw("o.attribute_option_id::text = v.value"));
    })
    .where({ "v.tenant_id": tenant.tenantId, "a.project_id": projectId })
    .select("v.requirement_id", "a.name", "a.type", "v.value", "o.name as option");
  const links = await db("requirement_links").where({ tenant_id: tenant.tenantId });
  const nameOf = new Map(requirements.map((row) => [Number(row.requirement_id), row.name as string]));
  const text = (description: string) => (isRichText(description) ? htmlText(description) : description.replace(/\s+/g, " ").trim());
  const htmlText = (html: string) =>
    html
      .replace(/<[^>]+>/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
      .trim();
  return requirements
    .map((row) => ({
      path: [...pathOf(row.parent_folder_id === null ? null : Number(row.parent_folder_id)), row.name].join(" / "),
      display_id: row.display_id,
      type: row.type,
      description: text(row.description),
      fields: values
        .filter((value) => Number(value.requirement_id) === Number(row.requirement_id))
        .map((value) => `${value.name}=${value.type === "select" ? value.option : value.value}`)
        .sort(),
      linked: links
        .flatMap((link) =>
          Number(link.requirement_id) === Number(row.requirement_id)
            ? [Number(link.linked_requirement_id)]
            : Number(link.linked_requirement_id) === Number(row.requirement_id)
              ? [Number(link.requirement_id)]
              : [],
        )
        .map((id) => nameOf.get(id))
        .filter((name) => name !== undefined)
        .sort(),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const nameArbitrary = fc
  .array(fc.constantFrom("Pump", "Dose", "<alarm>", "A&B", '"quoted"', "Ölförderung", "✓", "rate", "x"), { minLength: 1, maxLength: 4 })
  .map((words) => words.join(" "));
const projectArbitrary = fc.record({
  folders: fc.array(fc.record({ name: nameArbitrary, parent: fc.nat() }), { maxLength: 5 }),
  requirements: fc.array(
    fc.record({
      name: nameArbitrary,
      folder: fc.nat(),
      level: fc.constantFrom(1, 2),
      description: fc.array(nameArbitrary, { maxLength: 3 }).map((paragraphs) => paragraphs.join("\n\n")),
      withId: fc.boolean(),
      note: fc.option(nameArbitrary, { nil: undefined }),
      colour: fc.option(fc.constantFrom("Red", "Green"), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  links: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
});

describe("the ReqIF export", () => {
  it("round-trips: export, then import into an empty project, gives the same requirements, fields, hierarchy and links", async () => {
    const types = await listRequirementTypes(ctx.deps.db, tenant.tenantId);
    const typeOfLevel = (level: number) => types.find((type) => type.level === level)?.requirement_type_id ?? 0;
    await fc.assert(
      fc.asyncProperty(projectArbitrary, async (shape) => {
        const project = nextProject++;
        const note = await createAttribute(ctx.deps, actor, CreateAttributeSchema.parse({ name: "Note", project, type: "string" }));
        const colour = await createAttribute(
          ctx.deps,
          actor,
          CreateAttributeSchema.parse({ name: "Colour", project, type: "select", options: [{ name: "Red" }, { name: "Green" }] }),
        );
        const folderIds: (number | null)[] = [null];
        for (const folder of shape.folders) {
          const parent = folderIds[folder.parent % folderIds.length] ?? null;
          folderIds.push((await createFolder(ctx.deps, actor, { name: folder.name, parent_folder_id: parent, project })).folder_id);
        }
        const created: { id: number; level: number }[] = [];
        for (const [index, requirement] of shape.requirements.entries()) {
          const option = colour.options.find((candidate) => candidate.name === requirement.colour);
          const detail = await createRequirement(
            ctx.deps,
            actor,
            CreateRequirementSchema.parse({
              name: requirement.name,
              requirement_type_id: typeOfLevel(requirement.level),
              project,
              parent_folder_id: folderIds[requirement.folder % folderIds.length],
              display_id: requirement.withId ? `R-${index}` : null,
              description: requirement.description,
              attributes: {
                ...(requirement.note ? { [note.attribute_id]: requirement.note } : {}),
                ...(option ? { [colour.attribute_id]: String(option.attribute_option_id) } : {}),
              },
              requirements: shape.links
                .filter(([from, to]) => to % shape.requirements.length === index && from % shape.requirements.length < index)
                .map(([from]) => created[from % shape.requirements.length])
                .filter((other) => other !== undefined && Math.abs(other.level - requirement.level) === 1)
                .map((other) => other?.id),
            }),
          );
          created.push({ id: detail.requirement_id, level: requirement.level });
        }

        const { bytes } = await exportReqif({ atlassian_project_id: project });
        expect(await schemaErrors(bytes)).toBe("");

        const target = nextProject++;
        const outcome = await importReqif(ctx, tenant.tenantId, auth, bytes, { atlassian_project_id: target, parent_folder_id: null });
        expect(outcome.error).toBeNull();
        const result = outcome.result as ReqifImportResult;
        expect(result.relations_skipped).toEqual([]);
        expect(result.not_imported).toEqual([]);
        const [specification] = await ctx.deps
          .db("folders")
          .where({ tenant_id: tenant.tenantId, project_id: target, parent_folder_id: null });
        expect(specification?.name).toBe(`Requirements of project ${project}`);
        expect(await projectContent(target, Number(specification?.folder_id))).toEqual(await projectContent(project, null));
        expect(await projectTree(ctx.deps.db, tenant.tenantId, target, Number(specification?.folder_id))).toEqual(
          await projectTree(ctx.deps.db, tenant.tenantId, project),
        );
      }),
      { numRuns: 8 },
    );
  }, 300_000);

  it("writes what a real tool wrote back as valid ReqIF: every sample imported, then exported, validates", async () => {
    for (const name of ["reqif-studio-01.reqif", "polarion-01.reqif", "xhtml-attribute.reqif", "enterprise-architect-01.reqif"]) {
      const project = nextProject++;
      const outcome = await importReqif(ctx, tenant.tenantId, auth, reqifFixture(name), {
        atlassian_project_id: project,
        parent_folder_id: null,
      });
      expect(outcome.status).toBe("finished");
      const { bytes } = await exportReqif({ atlassian_project_id: project });
      expect(await schemaErrors(bytes), name).toBe("");
    }
  });

  it("exports a folder with its subtree, and a baseline, each valid", async () => {
    const project = nextProject++;
    const [type] = await listRequirementTypes(ctx.deps.db, tenant.tenantId);
    const outside = await createFolder(ctx.deps, actor, { name: "Elsewhere", parent_folder_id: null, project });
    const folder = await createFolder(ctx.deps, actor, { name: "Dosing", parent_folder_id: null, project });
    const child = await createFolder(ctx.deps, actor, { name: "Alarms", parent_folder_id: folder.folder_id, project });
    for (const [name, parent] of [
      ["Rate", folder.folder_id],
      ["Occlusion", child.folder_id],
      ["Other", outside.folder_id],
    ] as const) {
      await createRequirement(
        ctx.deps,
        actor,
        CreateRequirementSchema.parse({ name, requirement_type_id: type?.requirement_type_id, project, parent_folder_id: parent }),
      );
    }
    const { bytes, original } = await exportReqif({ atlassian_project_id: project, folder_id: folder.folder_id });
    expect(original).toMatch(new RegExp(`^rmcloud-${project}-folder-${folder.folder_id}-\\d{4}-\\d{2}-\\d{2}\\.reqif$`));
    expect(await schemaErrors(bytes)).toBe("");
    const text = bytes.toString("utf8");
    expect(text).toContain('THE-VALUE="Rate"');
    expect(text).toContain('THE-VALUE="Occlusion"');
    expect(text).not.toContain('THE-VALUE="Other"');
    expect(text).not.toContain('THE-VALUE="Elsewhere"');

    const baseline = await request(ctx.app)
      .post("/api/baseline")
      .set("Authorization", auth)
      .send({ name: "B1", project, select_all_requirements: true });
    expect(baseline.status, JSON.stringify(baseline.body)).toBeLessThan(300);
    await ctx.deps
      .db("requirements")
      .where({ tenant_id: tenant.tenantId, project_id: project, name: "Rate" })
      .update({ name: "Renamed later" });
    const frozen = await exportReqif({ atlassian_project_id: project, baseline_id: baseline.body.baseline_id });
    expect(await schemaErrors(frozen.bytes)).toBe("");
    expect(frozen.bytes.toString("utf8")).toContain('THE-VALUE="Rate"');
  });

  it("keeps a requirement's identifier across exports, and the one it was imported with", async () => {
    const project = nextProject++;
    await importReqif(ctx, tenant.tenantId, auth, reqifFixture("eclipse-rmf-tc1000.reqif"), {
      atlassian_project_id: project,
      parent_folder_id: null,
    });
    const first = (await exportReqif({ atlassian_project_id: project })).bytes.toString("utf8");
    const second = (await exportReqif({ atlassian_project_id: project })).bytes.toString("utf8");
    const objectIds = (text: string) => [...text.matchAll(/<SPEC-OBJECT IDENTIFIER="([^"]+)"/g)].map((match) => match[1]);
    expect(objectIds(first)).toEqual(objectIds(second));
    expect(objectIds(first)).toContain("ID_TC1000_SpecObject");
  });

  it("with attachments is a .reqifz whose attachments come back on the same requirement", async () => {
    const project = nextProject++;
    const imported = await importReqif(ctx, tenant.tenantId, auth, reqifFixture("with-attachment.reqifz"), {
      atlassian_project_id: project,
      parent_folder_id: null,
      original_file_name: "with-attachment.reqifz",
    });
    expect(imported.status).toBe("finished");
    const { bytes, original } = await exportReqif({ atlassian_project_id: project, include_attachments: true });
    expect(original).toMatch(/\.reqifz$/);
    const members = await unzip(bytes);
    const reqif = members.get("requirements.reqif");
    expect(reqif && (await schemaErrors(reqif))).toBe("");
    expect([...members.keys()].filter((name) => name.endsWith("/Yin_yang.svg"))).toHaveLength(1);

    const target = nextProject++;
    const back = await importReqif(ctx, tenant.tenantId, auth, bytes, {
      atlassian_project_id: target,
      parent_folder_id: null,
      original_file_name: "back.reqifz",
    });
    expect(back.error).toBeNull();
    const attached = await ctx.deps
      .db("attachments as a")
      .join("requirements as r", function () {
        this.on("r.tenant_id", "a.tenant_id").andOn("r.requirement_id", "a.requirement_id");
      })
      .where({ "a.tenant_id": tenant.tenantId, "r.project_id": target })
      .select("r.name", "r.description", "a.original_file_name");
    const before = await ctx.deps
      .db("attachments as a")
      .join("requirements as r", function () {
        this.on("r.tenant_id", "a.tenant_id").andOn("r.requirement_id", "a.requirement_id");
      })
      .where({ "a.tenant_id": tenant.tenantId, "r.project_id": project })
      .select("r.name", "a.original_file_name");
    expect(attached.map(({ name, original_file_name }) => ({ name, original_file_name }))).toEqual(before);
    expect(attached[0]?.description).not.toContain("Yin_yang.svg");
  });

  it("refuses a folder or a baseline of another project", async () => {
    const folder = await createFolder(ctx.deps, actor, { name: "Theirs", parent_folder_id: null, project: 1 });
    const res = await request(ctx.app)
      .post("/api/requirement/export/reqif")
      .set("Authorization", auth)
      .send({ atlassian_project_id: 2, folder_id: folder.folder_id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ folder_id: ["The folder does not exist in this project"] });
    const baseline = await request(ctx.app)
      .post("/api/requirement/export/reqif")
      .set("Authorization", auth)
      .send({ atlassian_project_id: 2, baseline_id: 999999 });
    expect(baseline.body).toEqual({ baseline_id: ["The baseline does not exist in this project"] });
  });
});
