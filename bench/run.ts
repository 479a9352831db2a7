import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeResults } from "./performanceDoc.js";
import type { BenchCase, BenchContext, BenchResult } from "./types.js";

/**
 * `npm run bench [case-name ...]`: every case under bench/cases on the embedded PGlite and, when
 * DATABASE_URL is set, on PostgreSQL. Prints ratios against a baseline measured in the same run,
 * keeps them in bench/results.json (a case run alone replaces its own rows only) and writes
 * docs/performance.md from that file.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const only = new Set(process.argv.slice(2));
const caseFiles = fs
  .readdirSync(path.join(here, "cases"))
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .sort();

/** BENCH_DB=postgres (or pglite) runs the cases on that database alone. */
const onlyDb = process.env.BENCH_DB;
const contexts: BenchContext[] = onlyDb === "postgres" ? [] : [{ db: "pglite" }];
if (process.env.DATABASE_URL && onlyDb !== "pglite") contexts.push({ db: "postgres", databaseUrl: process.env.DATABASE_URL });

const results: BenchResult[] = [];
for (const file of caseFiles) {
  const module = (await import(path.join(here, "cases", file))) as { default: BenchCase };
  const benchCase = module.default;
  if (only.size > 0 && !only.has(benchCase.name)) continue;
  for (const context of contexts) {
    process.stdout.write(`running ${benchCase.name} on ${context.db}...\n`);
    try {
      results.push(...(await benchCase.run(context)));
    } catch (error) {
      process.stderr.write(`${benchCase.name} on ${context.db} failed: ${(error as Error).stack}\n`);
      process.exitCode = 1;
    }
  }
}

console.table(
  results.map((r) => ({ case: r.case, db: r.db, ours: r.ours, baseline: r.baseline, unit: r.unit, ratio: r.ratio, note: r.note ?? "" })),
);
writeResults(results);
process.exit();
