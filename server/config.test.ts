import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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

describe("where development listens", () => {
  it("listens on this machine only unless HOST opts in; production listens on every interface", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ NODE_ENV: "test" }).host).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(loadConfig({ NODE_ENV: "production", APP_TOKEN_SECRET: "0123456789abcdef0123456789abcdef" }).host).toBeUndefined();
  });
});

describe("APP_TOKEN_SECRET in development", () => {
  const folders: string[] = [];
  const dataFolder = async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "rmcloud-config-"));
    folders.push(folder);
    return folder;
  };
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it("is made at random for each data folder on its first start and kept there, readable by its owner only", async () => {
    const [first, second] = [await dataFolder(), await dataFolder()];
    const secret = loadConfig({ DATA_DIR: first }).appTokenSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toBe("rmcloud-development-only-secret");
    expect(loadConfig({ DATA_DIR: first }).appTokenSecret).toBe(secret);
    expect(loadConfig({ DATA_DIR: second }).appTokenSecret).not.toBe(secret);
    expect((await stat(path.join(first, "app-token-secret"))).mode & 0o777).toBe(0o600);
    expect(await readdir(first)).toEqual(["app-token-secret"]);
  });
});
