import type { AddressInfo } from "node:net";
import express from "express";
import type { Db } from "../../server/db/knex.js";
import { bearer, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { seedRealisticTenant } from "../../test/helpers/realisticTenant.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const REQUIREMENTS = 100_000;

/**
 * What pickers and the search box send at a site of 100,000 requirements (realisticTenant.ts: 100
 * projects of 1,000; requirement 50003 is SYS-50003 of project 10050; every description holds
 * "system", every requirement a custom-field value "Team n").
 */
const SEARCHES = [
  { name: "picker-search-100k", query: { q: "SYS-50003", atlassian_project_id: ["10050", "0"] } },
  { name: "picker-search-100k-number-site", query: { q: "50003" } },
  { name: "picker-search-100k-first-page", query: { q: "", atlassian_project_id: ["10050", "0"] } },
  { name: "picker-search-100k-words", query: { q: "requirement 5000", atlassian_project_id: ["10050"] } },
  { name: "picker-search-100k-common-word-site", query: { q: "system" } },
] as const;

type Server = { url: string; close: () => Promise<void> };

async function listen(app: express.Express): Promise<Server> {
  const server = app.listen(0, "127.0.0.1");
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const queryString = (query: Record<string, string | readonly string[]>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const item of [value].flat()) params.append(key, item);
  return params.toString();
};

async function call(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The search statement our endpoint sends for each query, as knex hands it to the database (captured once). */
async function capturedStatements(db: Db, url: string, authorization: string): Promise<Map<string, { sql: string; bindings: unknown[] }>> {
  const statements = new Map<string, { sql: string; bindings: unknown[] }>();
  for (const search of SEARCHES) {
    let last: { sql: string; bindings: unknown[] } | undefined;
    const listener = (query: { sql: string; bindings: unknown[] }) => {
      last = query;
    };
    db.on("query", listener);
    await call(`${url}/api/requirement/search?${queryString(search.query)}`, { authorization });
    db.off("query", listener);
    if (!last) throw new Error(`No statement for ${search.name}`);
    statements.set(search.name, { sql: last.sql.replace(/\$\d+/g, "?"), bindings: last.bindings });
  }
  return statements;
}

/** A bare Express endpoint: no token, no validation, no type lookup or shaping; the same statement's rows as JSON. */
function bareApp(db: Db, statements: Map<string, { sql: string; bindings: unknown[] }>): express.Express {
  const app = express();
  app.get("/search/:name", async (req, res) => {
    const statement = statements.get(req.params.name);
    if (!statement) return void res.status(404).end();
    const result = await db.raw(statement.sql, statement.bindings as never[]);
    res.json({ requirements: result.rows });
  });
  return app;
}

/**
 * The requirement search (GET /api/requirement/search) at a site of 100,000 requirements: our
 * endpoint (token, validation, the site's types, the search statement, highlights) against a bare
 * endpoint running the very statement ours sends, both over HTTP, median of 50 calls after 5.
 * Ratio in ms (1 = as fast as the bare statement). The goals: well under 100 ms for a
 * picker, under 200 ms for the full-text search; the absolute medians are the `ours` column.
 */
const pickerSearch: BenchCase = {
  name: "picker-search-100k",
  async run(context) {
    const database = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const tenant = await seedRealisticTenant(database.db, REQUIREMENTS);
    const ctx = await createTestApp({}, { database, checkResponses: false });
    const ours = await listen(ctx.app);
    try {
      const authorization = await bearer(ctx, tenant);
      const statements = await capturedStatements(database.db, ours.url, authorization);
      const bare = await listen(bareApp(database.db, statements));
      try {
        const results: BenchResult[] = [];
        for (const search of SEARCHES) {
          const oursMs = await medianMs(() => call(`${ours.url}/api/requirement/search?${queryString(search.query)}`, { authorization }));
          const bareMs = await medianMs(() => call(`${bare.url}/search/${search.name}`));
          results.push({
            case: search.name,
            db: context.db,
            ours: round(oursMs, 2),
            baseline: round(bareMs, 2),
            unit: "ms",
            ratio: round(oursMs / bareMs),
          });
        }
        return results;
      } finally {
        await bare.close();
      }
    } finally {
      await ours.close();
      await ctx.destroy();
    }
  },
};

export default pickerSearch;
