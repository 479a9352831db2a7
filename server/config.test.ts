import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("DATABASE_POOL_SIZE", () => {
  it("is 10 connections per process unless set", () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: "4" }).databasePoolSize).toBe(4);
  });

  it("is refused below 2: a process migrating at start holds the lock on one connection and migrates on another", () => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: "1" })).toThrow(/DATABASE_POOL_SIZE must be at least 2/);
  });
});

describe("AC_OPTS", () => {
  it("refuses to start with atlassian-connect-express's options that skip signature checks", () => {
    expect(() => loadConfig({ AC_OPTS: "no-auth" })).toThrow(/AC_OPTS=no-auth/);
    expect(() => loadConfig({ AC_OPTS: "no-reg, no-auth" })).toThrow(/AC_OPTS=no-auth/);
    expect(() => loadConfig({ AC_OPTS: "no-token-verfication" })).toThrow(/AC_OPTS=no-token-verfication/);
    expect(loadConfig({ AC_OPTS: "no-reg" }).port).toBeGreaterThan(0);
  });
});

describe("APP_TOKEN_SECRET in production", () => {
  const production = (secret: string) => loadConfig({ NODE_ENV: "production", APP_TOKEN_SECRET: secret });

  it("refuses to start with the example value docker-compose.yml once shipped, which anyone can read", () => {
    expect(() => production("change-me-to-a-long-random-secret")).toThrow(/not the example value/);
  });

  it("refuses a secret shorter than 32 characters and takes one of 32; development keeps its short ones", () => {
    expect(() => production("a".repeat(31))).toThrow(/APP_TOKEN_SECRET must be a random string of at least 32 characters/);
    expect(production("0123456789abcdef0123456789abcdef").appTokenSecret).toBe("0123456789abcdef0123456789abcdef");
    expect(loadConfig({ APP_TOKEN_SECRET: "short-dev-secret" }).appTokenSecret).toBe("short-dev-secret");
  });
});
