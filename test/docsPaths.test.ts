import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The Markdown a newcomer reads first: every repository path it names must exist. */
const DOCUMENTS = [
  "README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const TOP_LEVEL = ["server", "client", "common", "emulator", "migrations", "test", "bench", "docs", "scripts", ".ci"];
/** Outputs of a command the text tells you to run, not files of the repository. */
const GENERATED = new Set(["bench/results.json", "docs/performance.md"]);

const PATH = new RegExp(`(?<![\\w/.-])((?:${TOP_LEVEL.map((dir) => dir.replace(".", "\\.")).join("|")})/[\\w./*{}<>-]*[\\w*/}>])`, "g");

/** Whether the path exists; `*` and placeholders such as `<feature>` or `{case}` stand for any part of one name. */
function exists(named: string): boolean {
  const segments = named.replace(/\/$/, "").split("/");
  const walk = (dir: string, rest: string[]): boolean => {
    const [segment, ...next] = rest;
    if (segment === undefined) return true;
    const pattern = segment.replace(/<[^>]+>|\{[^}]+\}/g, "*");
    if (!pattern.includes("*")) return existsSync(path.join(dir, pattern)) && walk(path.join(dir, pattern), next);
    if (!existsSync(dir)) return false;
    const matcher = new RegExp(
      `^${pattern
        .split("*")
        .map((part) => part.replace(/[.+?^$()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    return readdirSync(dir).some((name) => matcher.test(name) && walk(path.join(dir, name), next));
  };
  return walk(".", segments);
}

function namedPaths(document: string): string[] {
  return [...new Set([...readFileSync(document, "utf8").matchAll(PATH)].map((match) => match[1] as string))];
}

describe("paths named in the documentation", () => {
  it.each(DOCUMENTS)("%s names only paths that exist", (document) => {
    const missing = namedPaths(document).filter((named) => !GENERATED.has(named) && !exists(named));
    expect(missing).toEqual([]);
  });

  it("finds the paths it checks", () => {
    expect(namedPaths("README.md").length).toBeGreaterThan(5);
  });
});
