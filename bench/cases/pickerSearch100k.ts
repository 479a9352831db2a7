import type { Db } from "../../server/db/knex.js";
import { bearer, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { seedRealisticTenant } from "../../test/helpers/realisticTenant.js";
import { msFromEventUntilSeen } from "../firstSeen.js";
import { alternatingMedians, browserResult, openProjectPage, PROJECTS, startLargeSite } from "../largeSite.js";
import { round } from "../measure.js";
import { againstBareEndpoint, bareStatementApp, type CapturedStatement, capturedStatement, getJson, listen } from "../statementEndpoint.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

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

/** The IDs a person types for seeded requirements `Large requirement n` of a project (seed:large), and their options' labels. */
async function seededRequirementIds(db: Db, projectId: number, numbers: number[]): Promise<{ id: string; label: string }[]> {
  const rows = await db("requirements as r")
    .join("requirement_types as t", "t.requirement_type_id", "r.requirement_type_id")
    .where("r.project_id", projectId)
    .whereIn(
      "r.name",
      numbers.map((n) => `Large requirement ${n}`),
    )
    .select("r.requirement_id", "r.name", "t.prefix");
  return numbers.map((n) => {
    const row = rows.find((candidate) => candidate.name === `Large requirement ${n}`);
    const id = `${row.prefix}-${row.requirement_id}`;
    return { id, label: `${id}: Large requirement ${n}` };
  });
}

/** IDs looked up in each picker: a page load is not part of what is timed, so many fit in the run. */
const IDS_PER_PICKER = 11;

/**
 * Issue 37's "a picker finds a requirement by ID in < 300 ms from the keystroke", in headless
 * Chromium on the production build: the baseline dialog's requirement picker, open on its first
 * page, gets a whole ID as one input (a paste, or the last key of the ID once the picker's pause
 * after typing is the only one left) and the requirement's option appears; then its text is
 * cleared for the next ID, a requirement not looked up before (no answer cached). Requirements near
 * the end of a project of 100,000 against a project of 1,000 in the same run, medians of turns.
 */
async function keystrokeToResult(context: BenchContext): Promise<BenchResult> {
  const { harness } = await startLargeSite({ flat: false, postgresUrl: context.databaseUrl });
  try {
    const { db } = harness.addonDeps;
    // Requirements without a custom ID (seed:large gives every fourth one), so the ID is prefix and number.
    const numbers = (last: number) => Array.from({ length: IDS_PER_PICKER }, (_, k) => last - 4 * k);
    const picker = async (project: { id: number; key: string }, last: number) => {
      const targets = await seededRequirementIds(db, project.id, numbers(last));
      const { page, frame } = await openProjectPage(harness, project, "baselines");
      const addon = await frame();
      await addon.getByRole("button", { name: "Create baseline" }).click({ timeout: 120_000 });
      const dialog = addon.getByRole("dialog");
      await dialog.getByRole("radio", { name: "Individual requirements" }).check();
      await dialog.getByLabel("Requirements", { exact: true }).click();
      await addon.getByRole("option").first().waitFor({ timeout: 120_000 });
      const search = async () => {
        const target = targets.shift();
        if (!target) throw new Error("More searches than targets");
        const option = addon.getByRole("option", { name: target.label });
        const label = new RegExp(target.label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
        const took = await msFromEventUntilSeen(addon, "input", { selector: '[role="option"]', text: label }, () =>
          page.keyboard.insertText(target.id),
        );
        await option.waitFor({ timeout: 120_000 });
        await page.keyboard.press("Control+A");
        await page.keyboard.press("Backspace");
        await option.waitFor({ state: "detached", timeout: 120_000 });
        await addon.getByRole("option").first().waitFor({ timeout: 120_000 });
        return took;
      };
      return { search, close: () => page.context().close() };
    };
    const large = await picker(PROJECTS.large, 99_997);
    const small = await picker(PROJECTS.small, 997);
    const [largeMs, smallMs] = await alternatingMedians(large.search, small.search, IDS_PER_PICKER);
    await large.close();
    await small.close();
    process.stdout.write(`  picker: an ID to its option in ${round(largeMs)} ms (100,000) vs ${round(smallMs)} ms (1,000)\n`);
    return browserResult(context.db, {
      case: "picker-search-100k:keystroke-to-option",
      ours: largeMs,
      baseline: smallMs,
      what: "the baseline dialog's picker from the typed ID to its option, 100,000 requirements against 1,000",
    });
  } finally {
    await harness.stop();
  }
}

/**
 * The requirement search (GET /api/requirement/search) at a site of 100,000 requirements: our
 * endpoint (token, validation, the site's types, the search statement, highlights) against a bare
 * endpoint running the very statement ours sends, both over HTTP, median of 50 calls after 5.
 * Ratio in ms (1 = as fast as the bare statement). The goals: well under 100 ms for a
 * picker, under 200 ms for the full-text search; the absolute medians are the `ours` column.
 */
async function endpointAgainstStatement(context: BenchContext): Promise<BenchResult[]> {
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
}

/** Issue 37's pickers at 100,000 requirements: the search endpoint, then a picker in the browser. */
const pickerSearch: BenchCase = {
  name: "picker-search-100k",
  async run(context) {
    return [...(await endpointAgainstStatement(context)), await keystrokeToResult(context)];
  },
};

export default pickerSearch;
