import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, type SignedInApp, seedRequirementTypes } from "../../test/helpers/app.js";

let signedIn: SignedInApp;
beforeAll(async () => {
  signedIn = await createSignedInApp();
  await seedRequirementTypes(signedIn.ctx.deps.db, signedIn.tenant.tenantId);
});
afterAll(() => signedIn.ctx.destroy());

type BadRequest = [method: "get" | "post" | "put" | "patch" | "delete", path: string, body?: unknown];

/** Malformed input across the API: each must get a clear 4xx in the spec's body format, never a 500. */
const badRequests: BadRequest[] = [
  ["get", "/api/requirement/abc"],
  ["get", "/api/requirement/99999999"],
  ["get", "/api/requirement?atlassian_project_id=x"],
  ["get", "/api/item/primary"],
  ["get", "/api/item/primary?atlassian_project_id=10000&expand=folder"],
  ["get", "/api/folder/99999999"],
  ["post", "/api/folder", { name: "x".repeat(101), parent_folder_id: null, project: 10000 }],
  ["post", "/api/folder", { name: "a\\b", parent_folder_id: null, project: 10000 }],
  ["post", "/api/folder", { name: "Orphan", parent_folder_id: 99999999, project: 10000 }],
  ["post", "/api/folder", "not an object"],
  ["put", "/api/folder/99999999", { name: "Gone", parent_folder_id: null }],
  ["post", "/api/requirement", {}],
  ["post", "/api/requirement", { name: "No type", project: 10000, requirement_type_id: "x" }],
  ["post", "/api/requirement", { name: "Unknown type", project: 10000, requirement_type_id: 99999999 }],
  ["post", "/api/requirement", { name: "Bad links", project: 10000, requirement_type_id: 1, requirements: [99999999] }],
  ["put", "/api/requirement/99999999", { name: "Gone", revision: 1 }],
  ["patch", "/api/requirement/99999999", { attachments: "none" }],
  ["post", "/api/requirement/delete/bulk", { requirements: ["a"] }],
  ["post", "/api/requirement/move/bulk", { parent_folder_id: 99999999, requirements: [] }],
  ["post", "/api/requirement/display_ids", { requirementIds: "1" }],
  ["post", "/api/requirement/type", { requirement_type: { name: "", prefix: "" } }],
  ["put", "/api/requirement/type/99999999", { requirement_type: { name: "X", prefix: "X" } }],
  ["delete", "/api/requirement/type/abc"],
  ["post", "/api/attribute", { name: "Risk", project: 10000, type: "colour" }],
  ["delete", "/api/attribute/99999999"],
  ["patch", "/api/customer/settings", { comment_on_associated_issues: "yes" }],
  ["post", "/api/sign-s3-put", { operation: "virus", original_file_name: "a.exe", file_type: "x" }],
  ["post", "/api/sign-s3-get", { original_file_name: "a.txt", uuid_file_name: "../../etc/passwd" }],
  ["put", "/api/issue/abc", { requirements: [1] }],
];

describe("bad input", () => {
  it.each(badRequests)("%s %s gets a clear 4xx in the spec's error format", async (method, path, body) => {
    const call = request(signedIn.ctx.app)[method](path).set("Authorization", signedIn.auth);
    const res = body === undefined ? await call : await call.send(body as object);
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    const errorBody = res.body as Record<string, unknown>;
    const isResult = typeof errorBody.Result === "string";
    const isFieldErrors =
      Object.keys(errorBody).length > 0 && Object.values(errorBody).every((messages) => Array.isArray(messages) || typeof messages === "object");
    expect(isResult || isFieldErrors, JSON.stringify(res.body)).toBe(true);
  });

  it("answers a body that is not JSON with 400", async () => {
    const res = await request(signedIn.ctx.app)
      .post("/api/folder")
      .set("Authorization", signedIn.auth)
      .set("Content-Type", "application/json")
      .send("{not json");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Result: "The request body is not valid JSON" });
  });
});
