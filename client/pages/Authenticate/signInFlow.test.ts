import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tokenStore } from "../../api/client.js";
import { memoryStorage } from "../../api/pageStorage.js";
import { signIn } from "./signIn.js";

const calls: Array<{ authorization: string; body: unknown }> = [];

function answerExchange(status: number, body: unknown) {
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    calls.push({ authorization: (init.headers as Record<string, string>).Authorization ?? "", body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
}

const host = { getContextToken: async () => "context-jwt" };

const earlySignIn = readFileSync(new URL("../../public/early-sign-in.js", import.meta.url), "utf8");

/** Runs the page head's early-sign-in.js at `page` (with the stubbed fetch) and leaves what it started where the app looks. */
function openPage(page: { pathname: string; search: string }): void {
  const window: Record<string, unknown> = { location: page };
  // A page without first reads (client/api/firstReads.test.ts has those).
  const document = { querySelectorAll: () => [], querySelector: () => null };
  runInNewContext(earlySignIn, { window, document, fetch, URLSearchParams, JSON });
  if (window.rmcloudEarlySignIn) vi.stubGlobal("rmcloudEarlySignIn", window.rmcloudEarlySignIn);
}

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal("sessionStorage", memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("signing in from the host", () => {
  it("exchanges the JWT of the iframe URL for the signed page and keeps the token", async () => {
    answerExchange(200, { token: "app-token" });
    const page = { pathname: "/authenticate/requirements", search: "?projectId=10000&lic=active&jwt=url-jwt" };
    await expect(signIn("requirements", page, host)).resolves.toBe("/requirements?projectId=10000&lic=active");
    expect(calls).toEqual([
      {
        authorization: "JWT url-jwt",
        body: { fullPath: "/authenticate/requirements?projectId=10000&lic=active&jwt=url-jwt", method: "GET", product: "jira" },
      },
    ]);
    expect(tokenStore.get()).toBe("app-token");
  });

  it("asks the host for a context token when the URL has none, and signs in to Confluence from a macro", async () => {
    answerExchange(200, { token: "app-token" });
    const page = { pathname: "/authenticate/confluence-insert-requirements-macro", search: "?contentId=65537" };
    await expect(signIn("confluence-insert-requirements-macro", page, host)).resolves.toBe(
      "/confluence-insert-requirements-macro?contentId=65537",
    );
    expect(calls[0]).toMatchObject({ authorization: "JWT context-jwt", body: { product: "confluence" } });
    expect(tokenStore.product()).toBe("confluence");
  });

  it("logs out and goes to the license page when the license is refused", async () => {
    tokenStore.set("old-token");
    answerExchange(403, { Result: "license" });
    const page = { pathname: "/authenticate/requirements", search: "?lic=none&xdm_e=https%3A%2F%2Facme.atlassian.net&jwt=j" };
    await expect(signIn("requirements", page, host)).resolves.toBe("/missing-license?lic=none&xdm_e=https%3A%2F%2Facme.atlassian.net");
    expect(tokenStore.get()).toBeUndefined();
  });

  it("reports other refusals", async () => {
    answerExchange(401, { Result: "The Connect token was not issued for this page" });
    await expect(signIn("requirements", { pathname: "/authenticate/requirements", search: "?jwt=j" }, host)).rejects.toMatchObject({
      status: 401,
      message: "The Connect token was not issued for this page",
    });
  });

  it("takes the exchange the page's head started before the app loaded, without asking again", async () => {
    answerExchange(200, { token: "app-token" });
    const page = { pathname: "/authenticate/requirements", search: "?projectId=10000&lic=active&jwt=url-jwt" };
    openPage(page);
    expect(calls).toHaveLength(1);
    await expect(signIn("requirements", page, host)).resolves.toBe("/requirements?projectId=10000&lic=active");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({
      authorization: "JWT url-jwt",
      body: { fullPath: "/authenticate/requirements?projectId=10000&lic=active&jwt=url-jwt", method: "GET", product: "jira" },
    });
    expect(tokenStore.get()).toBe("app-token");
  });

  it("asks again when the head guessed the product wrong, and reports a license refusal the head got", async () => {
    answerExchange(200, { token: "app-token" });
    const unknown = { pathname: "/authenticate/confluence-something-new", search: "?jwt=j" };
    openPage(unknown);
    await expect(signIn("confluence-something-new", unknown, host)).resolves.toBe("/requirements");
    expect(calls.map((call) => (call.body as { product: string }).product)).toEqual(["confluence", "jira"]);
    expect(tokenStore.product()).toBe("jira");

    answerExchange(403, { Result: "license" });
    const unlicensed = { pathname: "/authenticate/requirements", search: "?lic=none&jwt=j" };
    openPage(unlicensed);
    await expect(signIn("requirements", unlicensed, host)).resolves.toBe("/missing-license?lic=none");
    expect(calls).toHaveLength(3);
  });

  it("starts nothing early on a page without the host's JWT", async () => {
    answerExchange(200, { token: "app-token" });
    openPage({ pathname: "/authenticate/requirements", search: "?projectId=10000" });
    openPage({ pathname: "/requirements", search: "?jwt=j" });
    expect(calls).toEqual([]);
  });
});
