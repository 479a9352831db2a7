import fc from "fast-check";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, type SignedInApp, seedRequirementTypes } from "../../test/helpers/app.js";
import { NUL_MESSAGE } from "../middleware/validate.js";
import { openApiDocument } from "./index.js";

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
  ["get", "/api/requirement/abc", undefined, 404, { Result: "Not found" }],
  ["get", "/api/requirement/99999999", undefined, 404, { Result: "Requirement not found" }],
  ["get", "/api/requirement/99999999999999999999999", undefined, 400, { Result: "Must be a whole number" }],
  ["get", "/api/requirement?atlassian_project_id=x", undefined, 400, { atlassian_project_id: ["Required"] }],
  ["get", "/api/item/primary", undefined, 400, { atlassian_project_id: ["Required"] }],
  ["get", "/api/item/primary?atlassian_project_id=10000&expand=folder", undefined, 400, { expand: ["Invalid input"] }],
  ["get", "/api/folder/99999999", undefined, 404, { Result: "Folder not found" }],
  [
    "post",
    "/api/folder",
    { name: "x".repeat(101), parent_folder_id: null, project: 10000 },
    400,
    { name: ["Enter no more than 100 characters"] },
  ],
  [
    "post",
    "/api/folder",
    { name: "a\\b", parent_folder_id: null, project: 10000 },
    400,
    { name: ["The name cannot contain a backslash (\\)"] },
  ],
  [
    "post",
    "/api/folder",
    { name: "Orphan", parent_folder_id: 99999999, project: 10000 },
    400,
    { parent_folder_id: ["The folder does not exist in this project"] },
  ],
  ["post", "/api/folder", "not an object", 400, { name: ["Required"], project: ["Required"] }],
  ["put", "/api/folder/99999999", { name: "Gone", parent_folder_id: null }, 404, { Result: "Folder not found" }],
  ["post", "/api/requirement", {}, 400, { name: ["Required"], requirement_type_id: ["Required"], project: ["Required"] }],
  [
    "post",
    "/api/requirement",
    { name: "No type", project: 10000, requirement_type_id: "x" },
    400,
    { requirement_type_id: ["Must be a number"] },
  ],
  // A form's type select left on its empty choice sends "".
  ["post", "/api/requirement", { name: "No type", project: 10000, requirement_type_id: "" }, 400, { requirement_type_id: ["Required"] }],
  ["post", "/api/import-reqif/preview", {}, 400, { file_name: ["No file selected"] }],
  [
    "post",
    "/api/requirement",
    { name: "Unknown type", project: 10000, requirement_type_id: 99999999 },
    400,
    { requirement_type_id: ["Choose an existing requirement type"] },
  ],
  [
    "post",
    "/api/requirement",
    { name: "Bad links", project: 10000, requirement_type_id: 1, requirements: [99999999] },
    400,
    { requirements: ["Linked requirement 99999999 does not exist"] },
  ],
  ["put", "/api/requirement/99999999", { name: "Gone", revision: 1 }, 404, { Result: "Requirement not found" }],
  ["patch", "/api/requirement/99999999", { attachments: "none" }, 400, { attachments: ["Invalid input: expected array, received string"] }],
  ["post", "/api/requirement/delete/bulk", { requirements: ["a"] }, 400, { "requirements.0": ["Must be a number"] }],
  [
    "post",
    "/api/requirement/move/bulk",
    { parent_folder_id: 99999999, requirements: [] },
    400,
    { requirements: ["Select at least one requirement"] },
  ],
  ["post", "/api/requirement/move/bulk", { requirements: [1] }, 400, { parent_folder_id: ["Required"] }],
  [
    "post",
    "/api/requirement/move/bulk",
    { parent_folder_id: "abc", requirements: [1] },
    400,
    { parent_folder_id: ["Must be a folder id or null"] },
  ],
  ["post", "/api/folder", { name: 123, parent_folder_id: null, project: 10000 }, 400, { name: ["Must be text"] }],
  ["post", "/api/requirement", { name: 5, project: 10000, requirement_type_id: 1 }, 400, { name: ["Must be text"] }],
  [
    "post",
    "/api/requirement",
    { name: "Global", project: 0, requirement_type_id: 1, status: "10000", components: ["10000"], assigned_to: "5b10a2844c20165700ede21g" },
    400,
    {
      status: ["Global Requirements have no status"],
      components: ["Global Requirements have no components"],
      assigned_to: ["Global Requirements have no assignee"],
    },
  ],
  ["post", "/api/requirement/display_ids", { requirementIds: "1" }, 400, { requirementIds: ["Required"] }],
  ["post", "/api/requirement/type", { requirement_type: { name: "", prefix: "" } }, 400, { name: ["Required"], prefix: ["Required"] }],
  [
    "put",
    "/api/requirement/type/99999999",
    { requirement_type: { name: "X", prefix: "X" } },
    404,
    { Result: "Requirement type not found" },
  ],
  ["delete", "/api/requirement/type/abc", undefined, 404, { Result: "Not found" }],
  ["post", "/api/attribute", { name: "Risk", project: 10000, type: "colour" }, 400, { type: ["Must be string or select"] }],
  ["delete", "/api/attribute/99999999", undefined, 404, { Result: "Custom field not found" }],
  [
    "patch",
    "/api/customer/settings",
    { comment_on_associated_issues: "yes" },
    400,
    { comment_on_associated_issues: ["Must be true or false"] },
  ],
  [
    "post",
    "/api/sign-s3-put",
    { operation: "virus", original_file_name: "a.exe", file_type: "x" },
    400,
    { operation: ["Must be attachment or import"] },
  ],
  [
    "post",
    "/api/sign-s3-get",
    { original_file_name: "a.txt", uuid_file_name: "../../etc/passwd" },
    400,
    { uuid_file_name: ["Not a stored file name"] },
  ],
  ["put", "/api/issue/abc", { requirements: [1] }, 400, { Result: "Issue id must be a number" }],
  ["post", "/api/folder", { name: "Nul\u0000name", parent_folder_id: null, project: 10000 }, 400, { name: [NUL_MESSAGE] }],
  [
    "post",
    "/api/requirement",
    { name: "Pump", description: "dose\u0000", project: 10000, requirement_type_id: 1 },
    400,
    { description: [NUL_MESSAGE] },
  ],
  ["get", "/api/requirement?atlassian_content_id=12%0034", undefined, 400, { atlassian_content_id: [NUL_MESSAGE] }],
  ["get", "/api/requirement/1%00", undefined, 404, { Result: "Not found" }],
];

function expectSpecErrorFormat(body: unknown): void {
  const errorBody = body as Record<string, unknown>;
  const isResult = typeof errorBody.Result === "string";
  const isFieldErrors =
    Object.keys(errorBody).length > 0 &&
    Object.values(errorBody).every((messages) => Array.isArray(messages) || typeof messages === "object");
  expect(isResult || isFieldErrors, JSON.stringify(body)).toBe(true);
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** Every place a request schema takes text, as a path of keys (array items at index 0, record values under "1"). */
function textFieldPaths(schema: JsonSchema, path: string[] = []): string[][] {
  const variants = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const paths: string[][] = [];
  if (variants.some((variant) => variant.type === "string" || (Array.isArray(variant.type) && variant.type.includes("string")))) {
    paths.push(path);
  }
  for (const variant of variants) {
    for (const [key, property] of Object.entries(variant.properties ?? {})) paths.push(...textFieldPaths(property, [...path, key]));
    if (variant.items) paths.push(...textFieldPaths(variant.items, [...path, "0"]));
    if (typeof variant.additionalProperties === "object") paths.push(...textFieldPaths(variant.additionalProperties, [...path, "1"]));
  }
  const unique = new Map(paths.map((p) => [p.join("."), p]));
  return [...unique.values()];
}

function withValueAt(path: string[], value: string): unknown {
  return path.reduceRight<unknown>((inner, key) => (/^\d+$/.test(key) && key === "0" ? [inner] : { [key]: inner }), value);
}

type Operation = { requestBody?: { content: { "application/json": { schema: JsonSchema } } }; parameters?: { schema: JsonSchema }[] };

/** Every body and query text field of every route the OpenAPI document describes. */
const textFields = Object.entries(openApiDocument("http://localhost").paths as Record<string, Record<string, Operation>>).flatMap(
  ([openApiPath, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      // The token exchange reads its Connect JWT before its body; its own tests cover it.
      if (openApiPath === "/api/exchange-token") return [];
      const urlPath = openApiPath.replace(/\{\w+\}/g, "1");
      const body = operation.requestBody?.content["application/json"].schema;
      const query = operation.parameters?.[0]?.schema;
      return [
        ...(body
          ? textFieldPaths(body)
              .filter((p) => p.length > 0)
              .map((p) => ({ method, urlPath, in: "body" as const, field: p }))
          : []),
        ...(query
          ? textFieldPaths(query)
              .filter((p) => p.length === 1)
              .map((p) => ({ method, urlPath, in: "query" as const, field: p }))
          : []),
      ];
    }),
);

const textWithNul = fc
  .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
  .map(([before, after]) => `${before}\u0000${after}`);

describe("bad input", () => {
  it.each(badRequests)("%s %s answers its own status and the spec's error body", async (method, path, body, status, error) => {
    const call = request(signedIn.ctx.app)[method](path).set("Authorization", signedIn.auth);
    const res = body === undefined ? await call : await call.send(body as object);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: error });
  });

  it("finds text fields in the request schemas", () => {
    expect(textFields.length).toBeGreaterThan(20);
    expect(textFields).toContainEqual({ method: "post", urlPath: "/api/folder", in: "body", field: ["name"] });
  });

  // PostgreSQL cannot store U+0000: every text field of every route refuses it with a 400 naming the field.
  it.each(textFields.map((f) => [f.method, f.urlPath, f.in, f.field.join("."), f] as const))(
    "%s %s refuses a NUL character in %s field %s",
    async (_method, _path, _in, fieldName, { method, urlPath, field }) => {
      await fc.assert(
        fc.asyncProperty(textWithNul, async (text) => {
          const call = request(signedIn.ctx.app)[method as "get"](urlPath).set("Authorization", signedIn.auth);
          const res = _in === "query" ? await call.query({ [fieldName]: text }) : await call.send(withValueAt(field, text) as object);
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body).toEqual({ [fieldName]: [NUL_MESSAGE] });
        }),
        { numRuns: 5 },
      );
    },
  );

  it("never answers a generated body with a 5xx", async () => {
    const writes = textFields.filter((f) => f.in === "body");
    const routes = [...new Map(writes.map((f) => [`${f.method} ${f.urlPath}`, f])).values()];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue({ maxDepth: 3 }), async (route, body) => {
        const res = await request(signedIn.ctx.app)
          [route.method as "post"](route.urlPath)
          .set("Authorization", signedIn.auth)
          .set("Content-Type", "application/json")
          .send(JSON.stringify(body));
        expect(res.status, `${route.method} ${route.urlPath} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status >= 400) expectSpecErrorFormat(res.body);
      }),
      { numRuns: 150 },
    );
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
