import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { mountSpa } from "./spa.js";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
/** A file where `npm start` keeps its data (the emulator's sites and secrets, the database, uploads). */
const dataFolder = path.join(projectRoot, ".data", `probe-${randomUUID()}`);
const secretFile = path.join(dataFolder, "sites.json");

let app: Express;

beforeAll(async () => {
  await mkdir(dataFolder, { recursive: true });
  await writeFile(secretFile, JSON.stringify({ sharedSecret: "emulator-site-secret" }));
  app = express();
  await mountSpa(app, loadConfig({ NODE_ENV: "test", APP_TOKEN_SECRET: "spa-development-test-secret-0123" }), { mode: "vite" });
});

afterAll(async () => {
  await rm(dataFolder, { recursive: true, force: true });
});

describe("the development server's files", () => {
  it("refuses the data folder by absolute path: nothing of it can be read without signing in", async () => {
    const response = await request(app).get(`/app/@fs${secretFile}`);
    expect(response.status).toBe(403);
    expect(response.text).not.toContain("emulator-site-secret");
  });

  it("refuses the project's other files outside the client's sources", async () => {
    const response = await request(app).get(`/app/@fs${path.join(projectRoot, "package.json")}`);
    expect(response.status).toBe(403);
  });

  it("still serves the client's modules and the shared code they import", async () => {
    expect((await request(app).get("/app/main.tsx")).status).toBe(200);
    expect((await request(app).get(`/app/@fs${path.join(projectRoot, "common", "spaRoutes.ts")}`)).status).toBe(200);
  });
});
