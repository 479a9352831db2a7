import { defineConfig } from "vitest/config";

/**
 * Integration tests (`*.db.test.ts`) run once on the embedded PGlite and, when
 * TEST_DATABASE_URL is set, once more on that PostgreSQL. Browser specs live in test/e2e.
 */
const dbProjects = [
  { name: "db-pglite", env: { TEST_DB: "pglite" } },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "db-postgres", env: { TEST_DB: "postgres" } }] : []),
];

export default defineConfig({
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{common,server,client,emulator,test,bench}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.db.test.ts", "test/e2e/**", "**/node_modules/**"],
        },
      },
      ...dbProjects.map((project) => ({
        extends: true as const,
        test: {
          name: project.name,
          include: ["{server,emulator,test}/**/*.db.test.ts"],
          exclude: ["test/e2e/**", "**/node_modules/**"],
          env: project.env,
        },
      })),
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
