import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUDGETS_KB, describeLoad, initialLoad, otherEntriesReached } from "../scripts/bundleBudget.js";

/**
 * Issue 39: the production build of the requirements page and of the issue panel stays within what
 * a first screen inside Jira can afford. Built afresh (with source maps, to tell which packages went
 * where) into a directory of its own, so that dist/ is left as it was.
 */
let distDir: string;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bundle-"));
  const { build } = await import("vite");
  // Vitest runs with NODE_ENV=test, which would build React's and emotion's development code.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: path.resolve("vite.config.ts"),
      logLevel: "error",
      build: { outDir: distDir, sourcemap: true, manifest: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}, 300_000);

afterAll(() => {
  fs.rmSync(distDir, { recursive: true, force: true });
});

/** The source modules bundled into the scripts `entry` loads before its first row, read from their source maps (the bundler's runtime has none). */
function initialSources(entry: string): string[] {
  return initialLoad(distDir, entry)
    .files.map(({ file }) => path.join(distDir, `${file}.map`))
    .filter((map) => fs.existsSync(map))
    .flatMap((map) => (JSON.parse(fs.readFileSync(map, "utf8")) as { sources: string[] }).sources);
}

describe("the first screen's size budget", () => {
  it.each(Object.entries(BUDGETS_KB))("%s loads at most %i KB gzipped before its first row", (entry, kb) => {
    const load = initialLoad(distDir, entry);
    expect(load.gzipBytes, describeLoad(load)).toBeLessThanOrEqual(kb * 1024);
  });

  it("keeps what the first tree row does not need out of the requirements page's first load", () => {
    const sources = initialSources("index.html");
    expect(sources.some((source) => source.includes("node_modules/react-dom/"))).toBe(true);
    expect(sources.some((source) => source.includes("components/RequirementTree/RequirementTree.tsx"))).toBe(true);
    const deferred = [
      "node_modules/zod/",
      "node_modules/@statsig/",
      "node_modules/@atlaskit/feature-gate-js-client/",
      "node_modules/@atlaskit/react-select/",
      "node_modules/@atlaskit/modal-dialog/dist/esm/modal-wrapper",
      "node_modules/@atlaskit/dynamic-table/",
      "node_modules/@atlaskit/dropdown-menu/",
      "node_modules/@atlaskit/tooltip/",
      "node_modules/@atlaskit/flag/",
      "node_modules/react-hook-form/",
      "node_modules/@sentry/",
      "node_modules/diff/",
      "node_modules/recharts/",
      "node_modules/csv-parse/",
      "pages/TraceabilityMatrix/",
      "pages/Baselines/",
      "pages/Configuration/",
      "pages/Requirements/RequirementsDialogs.tsx",
      "components/RequirementDetail/RequirementDetail.tsx",
    ];
    expect(deferred.filter((part) => sources.some((source) => source.includes(part)))).toEqual([]);
  });

  it.each(Object.keys(BUDGETS_KB))("never starts another page inside %s, whatever it loads on demand", (entry) => {
    expect(otherEntriesReached(distDir, entry)).toEqual([]);
  });

  it("loads the requirements page's and the issue panel's first screens in a few scripts each", () => {
    for (const entry of Object.keys(BUDGETS_KB)) {
      expect(initialLoad(distDir, entry).files.filter(({ file }) => file.endsWith(".js")).length, entry).toBeLessThanOrEqual(6);
    }
  });

  it("gives the issue panel neither Atlaskit nor the query cache", () => {
    const sources = initialSources("panel.html");
    expect(sources.filter((source) => /node_modules\/(@atlaskit|@tanstack|zod)\//.test(source))).toEqual([]);
  });
});

describe("one form library", () => {
  it("bundles react-hook-form and no final-form, which Atlaskit's Form and inline edit brought (issue 38)", () => {
    const assets = path.join(distDir, "assets");
    const sources = fs
      .readdirSync(assets)
      .filter((file) => file.endsWith(".js.map"))
      .flatMap((map) => (JSON.parse(fs.readFileSync(path.join(assets, map), "utf8")) as { sources: string[] }).sources);
    expect(sources.some((source) => source.includes("node_modules/react-hook-form/"))).toBe(true);
    expect(sources.filter((source) => /node_modules\/final-form/.test(source))).toEqual([]);
  });
});

describe("what the build serves", () => {
  it("holds no test file: whatever lies in client/public is served to everyone", () => {
    const files = fs.readdirSync(distDir, { recursive: true, encoding: "utf8" });
    expect(files.filter((file) => /\.test\.[jt]sx?$/.test(file))).toEqual([]);
  });
});
