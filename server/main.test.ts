import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { warnAboutStateOfItsOwn } from "./main.js";

const SECRET = "0123456789abcdef".repeat(4);

function warningsFor(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  warnAboutStateOfItsOwn(loadConfig(env), { warn: (message) => warnings.push(message) });
  return warnings;
}

describe("the warnings a process gives at start about state no other replica sees", () => {
  it("names the embedded database and the local disk in production", () => {
    const warnings = warningsFor({ NODE_ENV: "production", APP_TOKEN_SECRET: SECRET });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^DATABASE_URL is unset/);
    expect(warnings[1]).toMatch(/^STORAGE_DRIVER=local/);
  });

  it("gives none in production on PostgreSQL and S3", () => {
    const env = { NODE_ENV: "production", APP_TOKEN_SECRET: SECRET, DATABASE_URL: "postgres://db/rmcloud", STORAGE_DRIVER: "s3" };
    expect(warningsFor(env)).toEqual([]);
  });

  it("gives none in development, where the embedded defaults are the point", () => {
    expect(warningsFor({})).toEqual([]);
  });
});
