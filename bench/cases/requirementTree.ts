import type { AddressInfo } from "node:net";
import express from "express";
import type { Db } from "../../server/db/knex.js";
import { appActor } from "../../server/services/context.js";
import { seedDefaultRequirementTypes } from "../../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { bearer, createTenant, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

const PROJECT = 10000;
const FOLDERS = 1000;
const REQUIREMENTS = 20_000;
const BIG_FOLDER_REQUIREMENTS = 5000;
/** Created through the API (with revisions, links, issues); the rest is bulk-inserted for speed. */
const VIA_API = 100;

type Server = { url: string; close: () => Promise<void> };

async function listen(app: express.Express): Promise<Server> {
  const server = app.listen(0);
  // Longer than the seed's pauses, so fetch never reuses a socket the server is closing (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function call(url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The same rows our endpoints answer, by the bare indexed SELECTs and nothing else. */
function bareApp(db: Db, tenantId: string): express.Express {
  const app = express();
  const requirementColumns = ["r.requirement_id", "r.display_id", "r.name", "t.prefix", "t.level", "r.parent_folder_id"];
  const requirements = () =>
    db("requirements as r")
      .join("requirement_types as t", function () {
        this.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id");
      })
      .where({ "r.tenant_id": tenantId, "r.project_id": PROJECT })
      .whereNull("r.deleted_at");
  app.get("/folder/:id/children", async (req, res) => {
    res.json({
      items: await requirements().where("r.parent_folder_id", Number(req.params.id)).orderBy("r.requirement_id").select(requirementColumns),
    });
  });
  app.get("/primary", async (_req, res) => {
    const folders = await db("folders")
      .where({ tenant_id: tenantId, project_id: PROJECT })
      .whereNull("parent_folder_id")
      .whereNull("deleted_at")
      .orderBy("name")
      .select("folder_id", "name", "description", "parent_folder_id");
    const top = await requirements().whereNull("r.parent_folder_id").orderBy("r.requirement_id").select(requirementColumns);
    res.json({ items: [...folders, ...top] });
  });
  app.get("/requirement/:id", async (req, res) => {
    res.json(await requirements().where("r.requirement_id", Number(req.params.id)).first(["r.*", "t.prefix", "t.level"]));
  });
  return app;
}

async function seed(db: Db, api: string, headers: Record<string, string>, tenantId: string) {
  const types = (await call(`${api}/api/requirement/type`, { headers })) as {
    requirement_types: { requirement_type_id: number; level: number }[];
  };
  const typeIds = types.requirement_types.map((type) => type.requirement_type_id);
  const post = (path: string, body: unknown) =>
    call(`${api}${path}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });

  // Ten top-level folders through the API, the big one first; the other 990 below them in bulk.
  const top: number[] = [];
  for (let i = 0; i < 10; i++) {
    const folder = (await post("/api/folder", { name: i === 0 ? "Big folder" : `Area ${i}`, project: PROJECT })) as {
      folder_id: number;
    };
    top.push(folder.folder_id);
  }
  const bigFolder = top[0] as number;
  const children: number[] = [];
  for (let start = 0; start < FOLDERS - top.length; start += 500) {
    const rows = Array.from({ length: Math.min(500, FOLDERS - top.length - start) }, (_, i) => ({
      tenant_id: tenantId,
      project_id: PROJECT,
      parent_folder_id: top[1 + ((start + i) % 9)],
      name: `Folder ${start + i}`,
      created_by: "bench",
    }));
    children.push(...(await db("folders").insert(rows).returning("folder_id")).map((row) => Number(row.folder_id)));
  }

  // A linked chain through the API, so the detail endpoint has links, issues and revisions to load.
  let previous: number | undefined;
  let detailId = 0;
  for (let i = 0; i < VIA_API; i++) {
    const created = (await post("/api/requirement", {
      name: `Requirement via API ${i}`,
      description: "Created through the API by the benchmark",
      requirement_type_id: typeIds[i % typeIds.length],
      project: PROJECT,
      parent_folder_id: bigFolder,
      issues: [String(10000 + i)],
      components: ["10100"],
      requirements: previous === undefined || i % typeIds.length === 0 ? [] : [previous],
    })) as { requirement_id: number };
    previous = created.requirement_id;
    if (i === VIA_API / 2 + 1) detailId = created.requirement_id;
  }

  const bulk = REQUIREMENTS - VIA_API;
  for (let start = 0; start < bulk; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, bulk - start) }, (_, offset) => {
      const n = start + offset;
      const inBig = n < BIG_FOLDER_REQUIREMENTS - VIA_API;
      return {
        tenant_id: tenantId,
        project_id: PROJECT,
        parent_folder_id: inBig ? bigFolder : children[n % children.length],
        requirement_type_id: typeIds[n % typeIds.length],
        display_id: n % 3 === 0 ? `BULK-${n}` : null,
        name: `Bulk requirement ${n}`,
        description: "Inserted in bulk by the benchmark",
        created_by: "bench",
      };
    });
    await db("requirements").insert(rows);
  }
  await db.raw("ANALYZE");
  return { bigFolder, detailId, expandFolder: top[1] as number };
}

async function run(context: BenchContext): Promise<BenchResult[]> {
  const ctx = await createTestApp({}, { database: await createTestDatabase({ postgresUrl: context.databaseUrl }), checkResponses: false });
  const db = ctx.deps.db;
  const servers: Server[] = [];
  try {
    const tenant = await createTenant(db, "bench");
    const tenantId = tenant.tenantId;
    await seedDefaultRequirementTypes({ db }, appActor(tenantId));
    const ours = await listen(ctx.app);
    const bare = await listen(bareApp(db, tenantId));
    servers.push(ours, bare);
    const headers = { authorization: await bearer(ctx, tenant, "bench") };
    const { bigFolder, detailId, expandFolder } = await seed(db, ours.url, headers, tenantId);

    const measure = async (name: string, oursUrl: string, bareUrl: string, iterations: number): Promise<BenchResult> => {
      const oursMs = await medianMs(() => call(oursUrl, { headers }), { iterations, warmup: 3 });
      const bareMs = await medianMs(() => call(bareUrl), { iterations, warmup: 3 });
      process.stdout.write(`  ${name}: ${round(oursMs)} ms vs bare ${round(bareMs)} ms\n`);
      return {
        case: `requirementTree:${name}`,
        db: context.db,
        ours: round(oursMs),
        baseline: round(bareMs),
        unit: "ms",
        ratio: round(oursMs / bareMs),
      };
    };
    return [
      await measure(
        "itemList5000",
        `${ours.url}/api/item/${bigFolder}/descendant?atlassian_project_id=${PROJECT}`,
        `${bare.url}/folder/${bigFolder}/children`,
        15,
      ),
      await measure(
        "itemPrimaryExpanded",
        `${ours.url}/api/item/primary?atlassian_project_id=${PROJECT}&expand=${expandFolder}`,
        `${bare.url}/primary`,
        30,
      ),
      await measure("requirementDetail", `${ours.url}/api/requirement/${detailId}`, `${bare.url}/requirement/${detailId}`, 50),
    ];
  } finally {
    for (const server of servers) await server.close();
    await ctx.destroy();
  }
}

const requirementTree: BenchCase = { name: "requirementTree", run };
export default requirementTree;
