import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "./server.js";
import { type StubAddon, startStubAddon } from "./testing/stubAddon.js";

const USER = "emulator_user=5b10ac8d82e05b22cc7d4ef5";
type ContentPage = {
  results: { id: string; title: string; space?: { key: string } }[];
  start: number;
  limit: number;
  size: number;
  _links: { next?: string };
};

describe("the emulated Confluence: CQL, content, macro history, kept across restarts", () => {
  let dataDir: string;
  let stub: StubAddon;
  let emulator: Emulator;

  const get = async <T>(pathAndQuery: string, base = emulator.url) => {
    const response = await fetch(`${base}${pathAndQuery}`, { headers: { Cookie: USER } });
    return { status: response.status, body: (await response.json()) as T };
  };
  const cql = (query: string, extra = "") => `/wiki/rest/api/content/search?cql=${encodeURIComponent(query)}${extra}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-confluence-"));
    let emulatorUrl = "";
    stub = await startStubAddon(() => `${emulatorUrl}/_emulator/connect-keys`);
    emulator = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    emulatorUrl = emulator.url;
  });
  afterAll(async () => {
    await emulator?.stop();
    await stub?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("searches pages by title within spaces, a page at a time, with _links.next until the last page", async () => {
    const byTitle = await get<ContentPage>(cql('type = page and title ~ "meeting*" and space in ("ENG","OPS")'));
    expect(byTitle.body.results.map((r) => r.title)).toEqual(["Meeting notes 2025-02-10", "Meeting notes 2025-02-24"]);
    expect(byTitle.body._links.next).toBeUndefined();
    expect((await get<ContentPage>(cql('type = page and space in ("OPS")'))).body.results).toEqual([]);

    const first = await get<ContentPage>(cql("type = page", "&start=0&limit=5&expand=space"));
    expect(first.body).toMatchObject({ start: 0, limit: 5, size: 5 });
    expect(first.body.results[0]?.space?.key).toBe("ENG");
    expect(first.body._links.next).toContain("start=5");
    const last = await get<ContentPage>(cql("type = page", "&start=10&limit=5"));
    expect(last.body.size).toBe(4);
    expect(last.body._links.next).toBeUndefined();
  });

  it("answers content by id with the last version's date and the contributors", async () => {
    const [page] = (await get<ContentPage>(cql('title ~ "checklist"'))).body.results;
    const content = await get<{
      version: { when: string; number: number };
      history: { contributors: { publishers: { users: { accountId: string; displayName: string }[] } } };
    }>(`/wiki/rest/api/content/${page?.id}?expand=version,history.contributors.publishers.users`);
    expect(content.body.version.when).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(content.body.history.contributors.publishers.users.map((u) => u.displayName).length).toBeGreaterThan(0);
  });

  it("keeps each version's macro parameters for the macro history, and keeps pages and their comments across a restart", async () => {
    const [page] = (await get<ContentPage>(cql('title ~ "overview"'))).body.results;
    const pageId = String(page?.id);
    const versions = await get<{ size: number }>(`/wiki/rest/api/content/${pageId}/version`);
    const save = (params: Record<string, string>) =>
      fetch(`${emulator.url}/_bridge/macro`, {
        method: "POST",
        headers: { Cookie: USER, "Content-Type": "application/json" },
        body: JSON.stringify({ pageId, macroId: "7f3c1e2a-0b7d-4c55-9d8e-1a2b3c4d5e01", slot: 0, params }),
      });
    expect((await save({ requirements: "1,2" })).status).toBe(200);
    expect((await save({ requirements: "3" })).status).toBe(200);
    const first = versions.body.size + 1;
    const macroAt = (base: string, version: number) =>
      get<{ parameters: Record<string, string> }>(
        `/wiki/rest/api/content/${pageId}/history/${version}/macro/id/7f3c1e2a-0b7d-4c55-9d8e-1a2b3c4d5e01`,
        base,
      );
    expect((await macroAt(emulator.url, first)).body.parameters).toEqual({ requirements: "1,2" });
    expect((await macroAt(emulator.url, first + 1)).body.parameters).toEqual({ requirements: "3" });
    expect((await macroAt(emulator.url, 1)).body.parameters).toEqual({});
    expect((await get(`/wiki/rest/api/content/${pageId}/history/99/macro/id/nope`)).status).toBe(404);

    const commented = await fetch(`${emulator.url}/wiki/rest/api/content`, {
      method: "POST",
      headers: { Cookie: USER, "Content-Type": "application/json" },
      body: JSON.stringify({
        type: "comment",
        container: { id: pageId, type: "page" },
        body: { storage: { value: "<p>Reviewed</p>", representation: "storage" } },
      }),
    });
    expect(commented.status).toBe(200);
    const comments = (base: string) =>
      get<{ results: { body: { storage: { value: string } } }[] }>(`/wiki/rest/api/content/${pageId}/child/comment`, base);
    expect((await comments(emulator.url)).body.results.map((c) => c.body.storage.value)).toEqual(["<p>Reviewed</p>"]);

    const again = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    try {
      expect((await comments(again.url)).body.results).toHaveLength(1);
      expect((await macroAt(again.url, first + 1)).body.parameters).toEqual({ requirements: "3" });
      const kept = again.sites.get("default")?.content.pages.find((p) => p.id === pageId);
      expect(kept?.macros[0]?.params).toEqual({ requirements: "3" });
    } finally {
      await again.stop();
    }
  });
});
