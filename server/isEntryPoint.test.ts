import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToProductionWhenCompiled, isEntryPoint } from "./isEntryPoint.js";

describe("whether a module is the file the process was started with", () => {
  let directory: string;
  let main: string;
  let mainUrl: string;

  beforeAll(async () => {
    // The real path, as Node gives its entry module (macOS keeps tmpdir() behind a symlink).
    directory = await realpath(await mkdtemp(path.join(tmpdir(), "rmcloud-entry-")));
    await mkdir(path.join(directory, "dist"));
    main = path.join(directory, "dist", "main.js");
    await writeFile(main, "");
    await writeFile(path.join(directory, "dist", "worker.js"), "");
    await symlink(main, path.join(directory, "current.js"));
    await symlink(path.join(directory, "dist"), path.join(directory, "release"));
    mainUrl = pathToFileURL(main).href;
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it("is when started by its own path, with or without its extension", () => {
    expect(isEntryPoint(mainUrl, main)).toBe(true);
    expect(isEntryPoint(mainUrl, path.join(directory, "dist", "main"))).toBe(true);
  });

  it("is when started through a symlink to the file or to its folder", () => {
    expect(isEntryPoint(mainUrl, path.join(directory, "current.js"))).toBe(true);
    expect(isEntryPoint(mainUrl, path.join(directory, "release", "main.js"))).toBe(true);
    expect(isEntryPoint(mainUrl, path.join(directory, "release", "main"))).toBe(true);
  });

  it("is not when another file was started, or one that does not exist, or none (a REPL)", () => {
    expect(isEntryPoint(mainUrl, path.join(directory, "dist", "worker.js"))).toBe(false);
    expect(isEntryPoint(mainUrl, path.join(directory, "dist", "missing.js"))).toBe(false);
    expect(isEntryPoint(mainUrl, undefined)).toBe(false);
  });
});

describe("the mode an entry point runs in", () => {
  it("is production for the compiled files started without NODE_ENV", () => {
    const env: NodeJS.ProcessEnv = {};
    defaultToProductionWhenCompiled("file:///app/dist/server/server/main.js", env);
    expect(env.NODE_ENV).toBe("production");
  });

  it("is what NODE_ENV says when it is set, even for the compiled files", () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: "development" };
    defaultToProductionWhenCompiled("file:///app/dist/server/server/main.js", env);
    expect(env.NODE_ENV).toBe("development");
  });

  it("stays the configuration's default (development) when run from source", () => {
    const env: NodeJS.ProcessEnv = {};
    defaultToProductionWhenCompiled("file:///app/server/main.ts", env);
    expect(env.NODE_ENV).toBeUndefined();
  });
});
