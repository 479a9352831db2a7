import { bearer, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { seedRealisticTenant } from "../../test/helpers/realisticTenant.js";
import { againstBareEndpoint, bareStatementApp, type CapturedStatement, capturedStatement, getJson, listen } from "../statementEndpoint.js";
import type { BenchCase } from "../types.js";

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

const queryString = (query: Record<string, string | readonly string[]>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const item of [value].flat()) params.append(key, item);
  return params.toString();
};

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
      const statements = new Map<string, CapturedStatement>();
      for (const search of SEARCHES) {
        const call = () => getJson(`${ours.url}/api/requirement/search?${queryString(search.query)}`, { authorization });
        statements.set(search.name, await capturedStatement(database.db, call));
      }
      // No token, validation, type lookup or shaping: the same statement's rows as JSON.
      const bare = await listen(bareStatementApp(database.db, "/search", statements, (rows) => ({ requirements: rows })));
      try {
        return await againstBareEndpoint(
          context.db,
          SEARCHES.map((search) => ({
            name: search.name,
            ours: () => getJson(`${ours.url}/api/requirement/search?${queryString(search.query)}`, { authorization }),
            bare: () => getJson(`${bare.url}/search/${search.name}`),
          })),
        );
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
