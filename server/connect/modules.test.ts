import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { confluenceDescriptor, jiraDescriptor, LOCAL_BASE_URL_PLACEHOLDER } from "./modules.js";

const topLevelDescriptor = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../atlassian-connect.json");

/** Every `url` in a descriptor's modules, wherever it is nested. */
function moduleUrls(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(moduleUrls);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => (key === "url" && typeof item === "string" ? [item] : moduleUrls(item)));
}

describe("Connect descriptors", () => {
  it("keeps the top-level atlassian-connect.json equal to the Jira descriptor of modules.ts", () => {
    const file = JSON.parse(fs.readFileSync(topLevelDescriptor, "utf8"));
    expect(file).toEqual(jiraDescriptor(LOCAL_BASE_URL_PLACEHOLDER));
  });

  it("sends every page through the sign-in hand-off", () => {
    for (const descriptor of [jiraDescriptor("https://addon.example.com"), confluenceDescriptor("https://addon.example.com")]) {
      const { webhooks, ...pages } = descriptor.modules;
      const urls = moduleUrls(pages);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url).toMatch(/^\/authenticate\/[a-z-]+(\?|$)/);
      expect(moduleUrls(webhooks)).toEqual(descriptor.key === "rmcloud" ? ["/webhooks/jira-issue-deleted"] : []);
    }
  });

  it("asks Jira for reading and writing only, and Confluence for reading only", () => {
    expect(jiraDescriptor("https://a").scopes).toEqual(["READ", "WRITE"]);
    expect(confluenceDescriptor("https://a").scopes).toEqual(["READ"]);
  });

  it("declares signed install callbacks and the add-on's base URL", () => {
    const descriptor = jiraDescriptor("https://addon.example.com");
    expect(descriptor.baseUrl).toBe("https://addon.example.com");
    expect(descriptor.apiMigrations).toEqual({ "signed-install": true });
    expect(descriptor.lifecycle).toEqual({ installed: "/installed", uninstalled: "/uninstalled" });
    expect(descriptor.authentication).toEqual({ type: "jwt" });
  });
});
