import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, buildUrl, onUnauthorized, setApiOrigin, TOKEN_KEY, tokenStore } from "./client.js";
import { memoryStorage } from "./pageStorage.js";

type Call = { url: string; init: RequestInit };

function fakeFetch(answers: Array<{ status: number; body?: unknown }>) {
  const calls: Call[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const answer = answers.shift() ?? { status: 200, body: {} };
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    return new Response(answer.status === 204 ? null : text, {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  });
  return calls;
}

const header = (call: Call | undefined, name: string) => (call?.init.headers as Record<string, string> | undefined)?.[name];

beforeEach(() => {
  vi.stubGlobal("sessionStorage", memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(async () => false);
});

describe("API addresses", () => {
  it("repeats a key for each value of a list and drops empty values", () => {
    expect(buildUrl("/api/item/primary", { atlassian_project_id: 10000, expand: [3, 7], skip: undefined, none: null })).toBe(
      "/api/item/primary?atlassian_project_id=10000&expand=3&expand=7",
    );
    expect(buildUrl("/api/requirement", { atlassian_project_id: [10000, 0] })).toBe(
      "/api/requirement?atlassian_project_id=10000&atlassian_project_id=0",
    );
  });

  it("puts paths under /api once", () => {
    expect(buildUrl("/user")).toBe("/api/user");
    expect(buildUrl("/api/user")).toBe("/api/user");
  });

  it("sends a Forge page's calls to the server by its URL, a Connect page's to its own origin", async () => {
    const calls = fakeFetch([
      { status: 200, body: {} },
      { status: 200, body: {} },
    ]);
    setApiOrigin("https://rmcloud.example.com/");
    try {
      await api.get("/api/user");
    } finally {
      setApiOrigin("");
    }
    await api.get("/api/user");
    expect(calls.map((call) => call.url)).toEqual(["https://rmcloud.example.com/api/user", "/api/user"]);
  });
});

describe("calling the API", () => {
  it("sends the stored token and returns the JSON answer", async () => {
    tokenStore.set("app-token");
    const calls = fakeFetch([{ status: 200, body: { folders: [] } }]);
    await expect(api.get("/api/folder/primary", { atlassian_project_id: 0 })).resolves.toEqual({ folders: [] });
    expect(calls[0]?.url).toBe("/api/folder/primary?atlassian_project_id=0");
    expect(header(calls[0], "Authorization")).toBe("Bearer app-token");
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe("app-token");
  });

  it("sends bodies as JSON with the method asked for", async () => {
    const calls = fakeFetch([{ status: 200, body: { id: 1 } }, { status: 204 }]);
    await api.put("/api/folder/1", { name: "Specs" });
    await expect(api.delete("/api/folder/1")).resolves.toBeUndefined();
    expect(calls[0]?.init.method).toBe("PUT");
    expect(calls[0]?.init.body).toBe('{"name":"Specs"}');
    expect(header(calls[0], "Content-Type")).toBe("application/json");
    expect(calls[1]?.init.method).toBe("DELETE");
  });

  it("turns an error answer into the spec's toast text", async () => {
    fakeFetch([{ status: 400, body: { name: ["Required"] } }]);
    const error = await api.post("/api/folder", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body: { name: ["Required"] }, message: "name - Required" });
  });

  it("signs in again once when the token is refused, then retries", async () => {
    tokenStore.set("expired");
    onUnauthorized(async () => {
      tokenStore.set("fresh");
      return true;
    });
    const calls = fakeFetch([
      { status: 401, body: { Result: "The token is invalid or has expired" } },
      { status: 200, body: { ok: true } },
    ]);
    await expect(api.get("/api/user")).resolves.toEqual({ ok: true });
    expect(calls.map((call) => header(call, "Authorization"))).toEqual(["Bearer expired", "Bearer fresh"]);
  });

  it("gives up when signing in again fails", async () => {
    onUnauthorized(async () => {
      throw new Error("no host");
    });
    fakeFetch([{ status: 401, body: { Result: "Unauthorized" } }]);
    await expect(api.get("/api/user")).rejects.toMatchObject({ status: 401, message: "Unauthorized" });
  });
});
