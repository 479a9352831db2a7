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
