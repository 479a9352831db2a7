import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Integration tests (`*.db.test.ts`) run once on the embedded PGlite and, when
 * TEST_DATABASE_URL is set, once more on that PostgreSQL. Browser specs live in test/e2e; the fault
 * tests that need PostgreSQL itself (and the add-on's processes) in test/faults.
 */
const dbProjects = [
  { name: "db-pglite", env: { TEST_DB: "pglite" } },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "db-postgres", env: { TEST_DB: "postgres" } }] : []),
];

export default defineConfig({
  test: {
    pool: "forks",
    // One file more than cores: much of a file's time is spent waiting on PostgreSQL, Chromium or
    // LibreOffice, which Vitest's default (a core left free) leaves idle. On two cores the whole run
    // took 17 minutes with three files at a time, 38 with one.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    // A file's setup starts an embedded PGlite and migrates it: seconds on a quiet machine, but over
    // two minutes on two cores under a full run's load, where the whole file was then skipped.
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{common,server,client,emulator,test,bench}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.{db,pglite,postgres}.test.ts", "test/e2e/**", "test/faults/**", "**/node_modules/**"],
        },
      },
      ...dbProjects.map((project) => ({
        extends: true as const,
        test: {
          name: project.name,
          // A test only one database can run is in a `.pglite.test.ts` or `.postgres.test.ts` file, collected there alone, not skipped.
          include: ["{server,emulator,test}/**/*.db.test.ts", `{server,emulator,test}/**/*.${project.env.TEST_DB}.test.ts`],
          exclude: ["test/e2e/**", "**/node_modules/**"],
          env: project.env,
        },
      })),
      // Faults of the database and of whole processes: PostgreSQL only, on a database of each file's own
      // (its connections are killed and refused), with child processes, one file at a time.
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true as const, test: { name: "faults", include: ["test/faults/**/*.faults.test.ts"], fileParallelism: false } }]
        : []),
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          globalSetup: ["test/e2e/builtClient.ts"],
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
