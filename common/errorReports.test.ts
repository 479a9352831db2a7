import { describe, expect, it } from "vitest";
import { scrubBreadcrumb, scrubEvent, scrubString } from "./errorReports.js";

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1NTcwNTg6dXNlciJ9.c2ln";

describe("what an error report may carry", () => {
  it("masks JWTs, bearer tokens, signed-URL signatures and e-mail addresses inside any text", () => {
    expect(scrubString(`token ${jwt} for jane.doe+qa@example.co.uk`)).toBe("token [Filtered] for [email]");
    expect(scrubString("Authorization: Bearer abc.def-123")).toBe("Authorization: Bearer [Filtered]");
    expect(scrubString(`/requirements?xdm_e=x&jwt=${jwt}&projectId=10000`)).toBe("/requirements?xdm_e=x&jwt=[Filtered]&projectId=10000");
    expect(scrubString("https://s3/b/k?X-Amz-Signature=abcdef&X-Amz-Expires=60")).toBe(
      "https://s3/b/k?X-Amz-Signature=[Filtered]&X-Amz-Expires=60",
    );
  });

  it("drops request bodies, cookies, personal user fields and requirement text, keeping ids and the stack", () => {
    const event = scrubEvent({
      message: "Save failed",
      request: {
        url: "/api/requirement/42",
        headers: { Authorization: `JWT ${jwt}`, Accept: "application/json" },
        data: "{}",
        cookies: {},
      },
      user: { id: "557058:user", email: "jane@example.com", username: "Jane" },
      extra: { requirementId: 42, requirement: { name: "Pump stops", description: "Within 2 s" } },
      exception: { values: [{ type: "Error", value: "boom", stacktrace: { frames: [{ filename: "app.js", function: "save" }] } }] },
      contexts: { os: { name: "Linux" } },
    });
    expect(event).toEqual({
      message: "Save failed",
      request: { url: "/api/requirement/42", headers: { Authorization: "[Filtered]", Accept: "application/json" } },
      user: { id: "557058:user" },
      extra: { requirementId: 42, requirement: { name: "[Filtered]", description: "[Filtered]" } },
      exception: { values: [{ type: "Error", value: "boom", stacktrace: { frames: [{ filename: "app.js", function: "save" }] } }] },
      contexts: { os: { name: "Linux" } },
    });
  });

  it("keeps a breadcrumb's URL and status but not its body", () => {
    expect(scrubBreadcrumb({ category: "fetch", data: { url: `/api/x?jwt=${jwt}`, status_code: 400, body: "Pump stops" } })).toEqual({
      category: "fetch",
      data: { url: "/api/x?jwt=[Filtered]", status_code: 400, body: "[Filtered]" },
    });
  });
});
