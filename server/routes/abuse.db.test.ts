import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, type SignedInApp } from "../../test/helpers/app.js";
import { createApp } from "../app.js";
import { createDb } from "../db/knex.js";
import { MAX_JSON_DEPTH } from "../middleware/jsonBody.js";

let signedIn: SignedInApp;
beforeAll(async () => {
  signedIn = await createSignedInApp();
});
afterAll(() => signedIn.ctx.destroy());

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("deeply nested JSON", () => {
  it("refuses 900,000 nested arrays with 400 before any sign-in, without parsing them", async () => {
    // 1.8 MB: within the limit of the largest bodies (a baseline's), whose route reads the body before the token.
    const res = await request(signedIn.ctx.app).post("/api/baseline").set("Content-Type", "application/json").send(nested(900_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Result: `The request body nests deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it("refuses the same body where a sign-in is exchanged as too large before reading it", async () => {
    const res = await request(signedIn.ctx.app).post("/api/exchange-token").set("Content-Type", "application/json").send(nested(900_000));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ Result: "The request body is too large" });
  });

  it("counts brackets inside strings as text, and takes a body nested as deep as the limit", async () => {
    const inText = { name: nested(10_000), parent_folder_id: null, project: 10000 };
    const res = await request(signedIn.ctx.app).post("/api/folder").set("Authorization", signedIn.auth).send(inText);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["Enter no more than 100 characters"] });
    const atLimit = await request(signedIn.ctx.app)
      .post("/api/requirement/display_ids")
      .set("Authorization", signedIn.auth)
      .set("Content-Type", "application/json")
      .send(`{"requirementIds": ${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(400);
    expect(atLimit.body).toEqual({ "requirementIds.0": ["Required"] });
  });
});

describe("answers that carry a site's data", () => {
  it("are never kept by a browser or proxy cache, the refused ones neither", async () => {
    const { app } = signedIn.ctx;
    const answers = [
      await request(app).get("/api/user").set("Authorization", signedIn.auth),
      await request(app).get("/api/requirement?atlassian_project_id=10000").set("Authorization", signedIn.auth),
      await request(app).get("/api/refresh").set("Authorization", signedIn.auth),
      await request(app).get("/api/user"),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401]);
    for (const answer of answers) expect(answer.headers["cache-control"]).toBe("no-store");
  });
});

describe("error answers", () => {
  it("never carry a stack trace or SQL: a failing query answers the spec's body only", async () => {
    // The add-on on a database without its tables: every query fails with the SQL in its message.
    const unmigrated = createDb({ kind: "pglite" });
    try {
      const app = await createApp({ ...signedIn.ctx.deps, db: unmigrated });
      const failed = await request(app).get("/api/user").set("Authorization", signedIn.auth);
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ Result: "Something went wrong on our side. Please try again." });
      expect(failed.text).not.toMatch(/select|installations|\bat\s+\S+\s+\(/i);
    } finally {
      await unmigrated.destroy();
    }
    // A second embedded database starts slowly on a busy machine.
  }, 120_000);

  it("answer a body that is not JSON with 400 in the spec's format, without the parser's trace", async () => {
    const res = await request(signedIn.ctx.app)
      .post("/api/folder")
      .set("Authorization", signedIn.auth)
      .set("Content-Type", "application/json")
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Result: "The request body is not valid JSON" });
  });
});
