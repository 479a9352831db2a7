import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { CONTRACT_BREACH, checkResponsesAgainstSchemas } from "./responseContract.js";

/** An app answering the documented GET /api/requirement/type with the given body and status. */
function answering(status: number, body: unknown) {
  const app = express();
  app.get("/api/requirement/type", (_req, res) => {
    res.status(status).json(body);
  });
  app.get("/api/requirement/matrix", (_req, res) => {
    res.status(status).type("json").send(JSON.stringify(body));
  });
  app.get("/api/undocumented", (_req, res) => {
    res.json({ anything: true });
  });
  return checkResponsesAgainstSchemas(app);
}

const systemType = { requirement_type_id: 3, name: "System", prefix: "SYS", level: 3, level_editable: false };

describe("route answers held to their published schemas", () => {
  it("lets a body that matches the schema through unchanged", async () => {
    const body = { requirement_types: [systemType], offset: 0, limit: 1000, has_more: false };
    const res = await request(answering(200, body)).get("/api/requirement/type");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
  });

  it("turns a body that drifted from the schema into a 500 naming the field", async () => {
    const res = await request(
      answering(200, { requirement_types: [{ ...systemType, level: "three" }], offset: 0, limit: 1000, has_more: false }),
    ).get("/api/requirement/type");
    expect(res.status).toBe(500);
    expect(res.body.Result).toContain(CONTRACT_BREACH);
    expect(res.body.Result).toContain("requirement_types.0.level");
  });

  it("checks a body the route sends as JSON text it built itself", async () => {
    const res = await request(answering(200, { rows: "not a list" })).get("/api/requirement/matrix");
    expect(res.status).toBe(500);
    expect(res.body.Result).toContain(CONTRACT_BREACH);
    expect(res.body.Result).toContain("rows");
  });

  it("leaves error answers and undocumented routes alone", async () => {
    const error = await request(answering(404, { Result: "Not found" })).get("/api/requirement/type");
    expect({ status: error.status, body: error.body }).toEqual({ status: 404, body: { Result: "Not found" } });
    const other = await request(answering(200, {})).get("/api/undocumented");
    expect(other.body).toEqual({ anything: true });
  });
});
