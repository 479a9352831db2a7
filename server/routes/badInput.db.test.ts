import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, type SignedInApp, seedRequirementTypes } from "../../test/helpers/app.js";

let signedIn: SignedInApp;
beforeAll(async () => {
  signedIn = await createSignedInApp();
  await seedRequirementTypes(signedIn.ctx.deps.db, signedIn.tenant.tenantId);
});
afterAll(() => signedIn.ctx.destroy());

type BadRequest = [
  method: "get" | "post" | "put" | "patch" | "delete",
  path: string,
  body: unknown,
  status: number,
  error: Record<string, unknown>,
];

/** Malformed input across the API: each gets its own status and the spec's error body, never a 500. */
const badRequests: BadRequest[] = [
  ["get", "/api/requirement/abc", undefined, 404, {"Result": "Not found"}],
  ["get", "/api/requirement/99999999", undefined, 404, {"Result": "Requirement not found"}],
  ["get", "/api/requirement?atlassian_project_id=x", undefined, 400, {"atlassian_project_id": ["Required"]}],
  ["get", "/api/item/primary", undefined, 400, {"atlassian_project_id": ["Required"]}],
  ["get", "/api/item/primary?atlassian_project_id=10000&expand=folder", undefined, 400, {"expand": ["Invalid input"]}],
  ["get", "/api/folder/99999999", undefined, 404, {"Result": "Folder not found"}],
  ["post", "/api/folder", { name: "x".repeat(101), parent_folder_id: null, project: 10000 }, 400, {"name": ["Enter no more than 100 characters"]}],
  ["post", "/api/folder", { name: "a\\b", parent_folder_id: null, project: 10000 }, 400, {"name": ["The name cannot contain a backslash (\\)"]}],
  ["post", "/api/folder", { name: "Orphan", parent_folder_id: 99999999, project: 10000 }, 400, {"parent_folder_id": ["The folder does not exist in this project"]}],
  ["post", "/api/folder", "not an object", 400, {"name": ["Required"], "project": ["Required"]}],
  ["put", "/api/folder/99999999", { name: "Gone", parent_folder_id: null }, 404, {"Result": "Folder not found"}],
  ["post", "/api/requirement", {}, 400, {"name": ["Required"], "requirement_type_id": ["Required"], "project": ["Required"]}],
  ["post", "/api/requirement", { name: "No type", project: 10000, requirement_type_id: "x" }, 400, {"requirement_type_id": ["Must be a number"]}],
  ["post", "/api/requirement", { name: "Unknown type", project: 10000, requirement_type_id: 99999999 }, 400, {"requirement_type_id": ["Choose an existing requirement type"]}],
  ["post", "/api/requirement", { name: "Bad links", project: 10000, requirement_type_id: 1, requirements: [99999999] }, 400, {"requirements": ["Linked requirement 99999999 does not exist"]}],
  ["put", "/api/requirement/99999999", { name: "Gone", revision: 1 }, 404, {"Result": "Requirement not found"}],
  ["patch", "/api/requirement/99999999", { attachments: "none" }, 400, {"attachments": ["Invalid input: expected array, received string"]}],
  ["post", "/api/requirement/delete/bulk", { requirements: ["a"] }, 400, {"requirements.0": ["Must be a number"]}],
  ["post", "/api/requirement/move/bulk", { parent_folder_id: 99999999, requirements: [] }, 400, {"requirements": ["Select at least one requirement"]}],
  ["post", "/api/requirement/display_ids", { requirementIds: "1" }, 400, {"requirementIds": ["Required"]}],
  ["post", "/api/requirement/type", { requirement_type: { name: "", prefix: "" } }, 400, {"name": ["Required"], "prefix": ["Required"]}],
  ["put", "/api/requirement/type/99999999", { requirement_type: { name: "X", prefix: "X" } }, 404, {"Result": "Requirement type not found"}],
  ["delete", "/api/requirement/type/abc", undefined, 404, {"Result": "Not found"}],
  ["post", "/api/attribute", { name: "Risk", project: 10000, type: "colour" }, 400, {"type": ["Invalid option: expected one of \"string\"|\"select\""]}],
  ["delete", "/api/attribute/99999999", undefined, 404, {"Result": "Custom field not found"}],
  ["patch", "/api/customer/settings", { comment_on_associated_issues: "yes" }, 400, {"comment_on_associated_issues": ["Must be true or false"]}],
  ["post", "/api/sign-s3-put", { operation: "virus", original_file_name: "a.exe", file_type: "x" }, 400, {"operation": ["Invalid option: expected one of \"attachment\"|\"import\""]}],
  ["post", "/api/sign-s3-get", { original_file_name: "a.txt", uuid_file_name: "../../etc/passwd" }, 400, {"uuid_file_name": ["Not a stored file name"]}],
  ["put", "/api/issue/abc", { requirements: [1] }, 400, {"Result": "Issue id must be a number"}],
];

describe("bad input", () => {
  it.each(badRequests)("%s %s answers its own status and the spec's error body", async (method, path, body, status, error) => {
    const call = request(signedIn.ctx.app)[method](path).set("Authorization", signedIn.auth);
    const res = body === undefined ? await call : await call.send(body as object);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: error });
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
