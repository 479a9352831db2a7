import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm run test:faults`: the fault and abuse tests, each on every database it runs on (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set) and in the browser. `npm run test:faults -- --report`
 * also rewrites docs/reliability.md from this run's results: what each test proves is its own
 * name, so the page says no more than the tests do.
 */

type FaultTestFile = { file: string; about: string };

const FAULT_TESTS: FaultTestFile[] = [
  { file: "server/routes/abuse.db.test.ts", about: "Bodies built to cost CPU, caching of answers, error bodies" },
  { file: "server/middleware/rateLimit.db.test.ts", about: "A flood from one site or one person" },
  { file: "server/middleware/rateLimit.postgres.test.ts", about: "A flood spread over the add-on's replicas" },
  { file: "server/listen.test.ts", about: "Slow clients, load balancers' kept-alive connections and stopping under them" },
  { file: "test/faults/stoppedUnderLoad.faults.test.ts", about: "The add-on's process stopped (SIGTERM) under load" },
  { file: "test/faults/databaseOutage.faults.test.ts", about: "PostgreSQL going away while the API serves and jobs run" },
  { file: "test/faults/killedWorker.faults.test.ts", about: "A worker process killed (SIGKILL) mid-import and mid-export" },
  { file: "server/storage/storageOutage.db.test.ts", about: "File storage unreachable during an upload, a download and an export's write" },
  {
    file: "server/services/jira/jiraFaults.db.test.ts",
    about: "Jira rate limiting (429, Retry-After), overloaded (503) and slow during an export and notifications",
  },
  {
    file: "server/services/notifications/notifications.db.test.ts",
    about: "Notifications retried: each comment and e-mail sent once, also when Jira stored a comment and answered 500",
  },
  { file: "server/connect/lifecycle.db.test.ts", about: "Install callbacks: forged, replayed, misdirected, taking over a site" },
  {
    file: "server/routes/auth/router.db.test.ts",
    about: "Sign-in: forged, expired, future and misdirected tokens, the license, the sign-in's week",
  },
  { file: "server/spa.development.test.ts", about: "The development server's files" },
  { file: "client/host/hostLoader.test.ts", about: "Which hosts the page loads a script from" },
  { file: "server/routes/badInput.db.test.ts", about: "Malformed input on every route, fuzzed over every request schema" },
  { file: "server/services/csv/importJob.db.test.ts", about: "An import's worker killed mid-import, a file that never ends its row" },
  { file: "server/jobs/jobs.db.test.ts", about: "Jobs whose worker dies, retries and exactly-once completion" },
  {
    file: "test/e2e/hostileText.e2e.test.ts",
    about: "Markup, javascript: links and formulas in names and descriptions, on every screen and in the exports",
  },
];

type Project = { name: string; label: string; matches: (file: string) => boolean };

const PROJECTS: Project[] = [
  {
    name: "unit",
    label: "unit",
    matches: (file) => !/\.(db|pglite|postgres)\.test\.ts$/.test(file) && !file.startsWith("test/e2e/") && !file.startsWith("test/faults/"),
  },
  { name: "db-pglite", label: "PGlite", matches: (file) => /\.(db|pglite)\.test\.ts$/.test(file) },
  ...(process.env.TEST_DATABASE_URL
    ? [
        { name: "db-postgres", label: "PostgreSQL", matches: (file: string) => /\.(db|postgres)\.test\.ts$/.test(file) },
        { name: "faults", label: "PostgreSQL, a database of its own", matches: (file: string) => file.startsWith("test/faults/") },
      ]
    : []),
  { name: "e2e", label: "browser", matches: (file) => file.startsWith("test/e2e/") },
];

type JsonReport = {
  testResults: { name: string; assertionResults: { ancestorTitles: string[]; title: string; status: string; duration?: number }[] }[];
};

/** Outcome of each test by file and full name, then by project label. */
type Outcomes = Map<string, Map<string, Map<string, { status: string; durationMs: number }>>>;

const root = fileURLToPath(new URL("..", import.meta.url));

function run(project: Project, files: string[], outcomes: Outcomes): boolean {
  const folder = mkdtempSync(path.join(tmpdir(), "rmcloud-faults-"));
  const output = path.join(folder, "results.json");
  try {
    const vitest = spawnSync(
      "npx",
      ["vitest", "run", "--project", project.name, "--reporter=default", "--reporter=json", `--outputFile=${output}`, ...files],
      { cwd: root, stdio: "inherit" },
    );
    const report = JSON.parse(readFileSync(output, "utf8")) as JsonReport;
    for (const result of report.testResults) {
      const file = path.relative(root, result.name);
      const tests = outcomes.get(file) ?? new Map();
      outcomes.set(file, tests);
      for (const test of result.assertionResults) {
        const name = [...test.ancestorTitles, test.title].join(": ");
        const byProject = tests.get(name) ?? new Map();
        tests.set(name, byProject);
        byProject.set(project.label, { status: test.status, durationMs: Math.round(test.duration ?? 0) });
      }
    }
    return vitest.status === 0;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function report(outcomes: Outcomes, labels: string[]): string {
  const lines = [
    "# Reliability: the fault and abuse tests",
    "",
    `Generated by \`npm run test:faults -- --report\` on ${new Date().toISOString().slice(0, 10)} (Node.js ${process.version}); do not edit by hand.`,
    "Each test's name says what it proves; each column is where it ran, with its latest result and time.",
    "",
  ];
  for (const { file, about } of FAULT_TESTS) {
    const tests = outcomes.get(file);
    lines.push(`## ${about}`, "", `\`${file}\``, "");
    if (!tests) {
      lines.push("Not run.", "");
      continue;
    }
    const columns = labels.filter((label) => [...tests.values()].some((byProject) => byProject.has(label)));
    lines.push(`| Test | ${columns.join(" | ")} |`, `|---|${columns.map(() => "---").join("|")}|`);
    for (const [name, byProject] of tests) {
      const cells = columns.map((label) => {
        const outcome = byProject.get(label);
        return outcome ? `${outcome.status} (${outcome.durationMs} ms)` : "";
      });
      lines.push(`| ${name.replace(/\|/g, "\\|")} | ${cells.join(" | ")} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

const outcomes: Outcomes = new Map();
let passed = true;
for (const project of PROJECTS) {
  const files = FAULT_TESTS.map(({ file }) => file).filter(project.matches);
  if (files.length > 0) passed = run(project, files, outcomes) && passed;
}
if (process.argv.includes("--report")) {
  writeFileSync(
    path.join(root, "docs", "reliability.md"),
    report(
      outcomes,
      PROJECTS.map((project) => project.label),
    ),
  );
  console.log("Wrote docs/reliability.md");
}
process.exitCode = passed ? 0 : 1;
