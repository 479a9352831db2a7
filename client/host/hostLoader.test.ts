import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const script = readFileSync(new URL("../public/host-loader.js", import.meta.url), "utf8");

type AddedScript = { src: string; async: boolean; fetchPriority?: string };

/** Runs host-loader.js in a page at `search` whose server named `hostOrigins`; answers the scripts it added. */
function addedScripts(search: string, hostOrigins?: string): AddedScript[] {
  const added: AddedScript[] = [];
  const document = {
    querySelector: (selector: string) =>
      hostOrigins !== undefined && selector === 'meta[name="rmcloud-host-origins"]' ? { getAttribute: () => hostOrigins } : null,
    createElement: () => ({ src: "", async: true }),
    head: { appendChild: (element: AddedScript) => added.push(element) },
  };
  runInNewContext(script, { window: { location: { search } }, document, URLSearchParams });
  return added;
}

const loadedScripts = (search: string, hostOrigins?: string) => addedScripts(search, hostOrigins).map((element) => element.src);

const from = (origin: string) => `?xdm_e=${encodeURIComponent(origin)}&jwt=x`;

describe("loading the host's bridge script", () => {
  it("loads it from an Atlassian site, Confluence's included", () => {
    expect(loadedScripts(from("https://acme.atlassian.net"))).toEqual(["https://acme.atlassian.net/atlassian-connect/all.js"]);
    expect(loadedScripts(from("https://acme.atlassian.net/wiki"))).toEqual(["https://acme.atlassian.net/wiki/atlassian-connect/all.js"]);
  });

  it("asks for it first, in order and at high priority: the first screen waits for the bridge", () => {
    expect(addedScripts(from("https://acme.atlassian.net"))).toEqual([
      { src: "https://acme.atlassian.net/atlassian-connect/all.js", async: false, fetchPriority: "high" },
    ]);
  });

  it("does not trust http://localhost in a production page, which names no other host", () => {
    expect(loadedScripts(from("http://localhost:2990"))).toEqual([]);
    expect(loadedScripts(from("http://127.0.0.1:2990"))).toEqual([]);
    expect(loadedScripts(from("https://acme.atlassian.net.evil.example"))).toEqual([]);
  });

  it("trusts exactly the hosts the server names: the local emulator in development", () => {
    expect(loadedScripts(from("http://localhost:2990"), "http://localhost:2990")).toEqual([
      "http://localhost:2990/atlassian-connect/all.js",
    ]);
    expect(loadedScripts(from("http://localhost:4000"), "http://localhost:2990")).toEqual([]);
    expect(loadedScripts(from("http://localhost:4000"), "http://localhost:* https://*.staging.example")).toEqual([
      "http://localhost:4000/atlassian-connect/all.js",
    ]);
    expect(loadedScripts(from("https://jira.staging.example"), "http://localhost:* https://*.staging.example")).toEqual([
      "https://jira.staging.example/atlassian-connect/all.js",
    ]);
    expect(loadedScripts(from("https://evil.example"), "http://localhost:* https://*.staging.example")).toEqual([]);
  });
});
