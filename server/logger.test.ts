import express from "express";
import pino from "pino";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { requestLogger } from "./logger.js";

type Line = { level: number; msg: string; req: { method: string; url: string }; res: { statusCode: number } };

async function linesOf(send: (agent: ReturnType<typeof request>) => Promise<unknown>): Promise<Line[]> {
  const lines: Line[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.use(requestLogger(logger));
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/api/requirement/:id", (req, res) => void res.status(req.params.id === "7" ? 200 : 404).json({}));
  app.post("/api/requirement", (_req, res) => void res.status(201).json({}));
  app.get("/api/broken", (_req, res) => void res.status(500).json({}));
  await send(request(app));
  await new Promise((resolve) => setImmediate(resolve));
  return lines;
}

const INFO = 30;

describe("the request log", () => {
  it("keeps fast successful reads below info, and writes, refusals and failures at info or above", async () => {
    const lines = await linesOf(async (agent) => {
      await agent.get("/api/requirement/7?jwt=secret");
      await agent.post("/api/requirement");
      await agent.get("/api/requirement/8");
      await agent.get("/api/broken");
    });
    expect(lines.map((line) => [line.req.method, line.req.url, line.res.statusCode, line.level >= INFO])).toEqual([
      ["GET", "/api/requirement/7", 200, false],
      ["POST", "/api/requirement", 201, true],
      ["GET", "/api/requirement/8", 404, true],
      ["GET", "/api/broken", 500, true],
    ]);
    expect(lines.at(-1)?.level).toBe(50);
  });

  it("does not log health checks", async () => {
    expect(await linesOf((agent) => agent.get("/healthz"))).toEqual([]);
  });
});
