import express from "express";
import pino from "pino";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { errorHandler } from "./errorHandler.js";

/** An app whose one route fails with `error`, and the lines its logger wrote. */
function failingWith(error: unknown) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.get("/fail", () => {
    throw error;
  });
  app.use(errorHandler(logger));
  return { app, lines };
}

describe("a database constraint violation that reaches the error handler", () => {
  it("answers 409 for a unique violation and logs which constraint refused it", async () => {
    const { app, lines } = failingWith(
      Object.assign(new Error("duplicate key"), { code: "23505", constraint: "folders_name_unique", table: "folders" }),
    );
    const res = await request(app).get("/fail");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Result: "A record with the same unique value already exists" });
    expect(lines).toEqual([expect.objectContaining({ level: 40, code: "23505", constraint: "folders_name_unique", table: "folders" })]);
  });

  it("answers 400 for a foreign-key violation and logs which constraint refused it", async () => {
    const { app, lines } = failingWith(
      Object.assign(new Error("violates foreign key"), {
        code: "23503",
        constraint: "requirement_components_tenant_id_requirement_id_foreign",
      }),
    );
    const res = await request(app).get("/fail");
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain("requirement_components");
    expect(lines).toEqual([expect.objectContaining({ constraint: "requirement_components_tenant_id_requirement_id_foreign" })]);
  });
});
