import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../../emulator/server.js";
import { restrictedUser, seedContentUsers } from "../../../emulator/seed/users.js";
import { DEFAULT_SITE } from "../../../emulator/sites.js";
import { createTestApp, insertRequirementRow, type TestContext } from "../../../test/helpers/app.js";
import { installOnEmulatedJira } from "../../../test/helpers/emulatedSiteInstall.js";
import type { HostClient } from "../../connect/hostClient.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor } from "../context.js";
import { exportRequirementRows } from "../csv/exportRequirements.js";
import { writeMatrixExport } from "../matrix/exportMatrix.js";
import { isJiraAdministrator, issuesUserMayBrowse } from "./jiraPermissions.js";

/**
 * The permission checks and the exports that rely on them against the emulated Jira, over HTTP
 * with the app's JWT as in production: its seeded administrators against Noor Haddad, who is no
 * administrator and may not browse ROVER.
 */
const GLOBAL = 0;

let dataDir: string;
let emulator: Emulator;
let ctx: TestContext;
let hostClient: HostClient;
let tenantId: string;
const issueIds = new Map<string, string>();

const administrator = (): Actor => ({ tenantId, accountId: seedContentUsers[0]?.accountId ?? "" });
const noor = (): Actor => ({ tenantId, accountId: restrictedUser.accountId });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-permissions-"));
  // No add-on answers at this address: the emulator then accepts the app's JWT issued as the client key.
  emulator = await startEmulator({ port: 0, addonUrl: "http://127.0.0.1:9", dataDir, installOnStart: false, log: () => {} });
  ctx = await createTestApp();
  const site = emulator.sites.get(DEFAULT_SITE);
  if (!site) throw new Error("the emulator has no site");
  ({ tenantId, hostClient } = await installOnEmulatedJira(ctx.deps.db, site));
  for (const issue of site.content.issues) issueIds.set(issue.key, issue.id);
});
afterAll(async () => {
  await ctx?.destroy();
  await emulator?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const idOf = (key: string) => {
  const id = issueIds.get(key);
  if (!id) throw new Error(`The emulator has no issue ${key}`);
  return id;
};

describe("asking the emulated Jira as the app", () => {
  it("knows every seeded content user as an administrator, and Noor Haddad not", async () => {
    for (const user of seedContentUsers)
      expect(await isJiraAdministrator({ ...ctx.deps, hostClient }, { tenantId, accountId: user.accountId })).toBe(true);
    expect(await isJiraAdministrator({ ...ctx.deps, hostClient }, noor())).toBe(false);
  });

  it("answers which issues a person may browse, more than one call's worth at a time", async () => {
    const projectIssues = [...issueIds.values()];
    // Ids Jira does not know are ignored; with them the question needs two calls.
    const unknown = Array.from({ length: 1000 }, (_, n) => String(900000 + n));
    const asked = [...projectIssues, ...unknown];

    const forAdministrator = await issuesUserMayBrowse({ ...ctx.deps, hostClient }, administrator(), asked);
    const forNoor = await issuesUserMayBrowse({ ...ctx.deps, hostClient }, noor(), asked);

    expect([...forAdministrator].toSorted()).toEqual(projectIssues.toSorted());
    const notRover = [...issueIds].filter(([key]) => !key.startsWith("ROVER-")).map(([, id]) => id);
    expect([...forNoor].toSorted()).toEqual(notRover.toSorted());
  });
});

describe("the exports of Global Requirements linked to PUMP-1 and ROVER-1", () => {
  let requirement: number;
  beforeAll(async () => {
    requirement = await insertRequirementRow(ctx.deps.db, tenantId, "Stop safely on any fault", GLOBAL);
    await ctx.deps
      .db("requirement_issue_links")
      .insert(["PUMP-1", "ROVER-1"].map((key) => ({ tenant_id: tenantId, requirement_id: requirement, atlassian_issue_id: idOf(key) })));
  });

  const wordExport = async (actor: Actor) => {
    const key = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
    await writeMatrixExport(
      { ...ctx.deps, hostClient },
      actor,
      { projectId: GLOBAL, selectedIssueTypes: ["10000", "10001", "10002", "10003"], storageKey: key },
      async () => {},
    );
    const zip = await JSZip.loadAsync(await buffer(await ctx.deps.storage.getObject(key)));
    return (await zip.file("word/document.xml")?.async("string")) ?? "";
  };

  const csvLinkedIssues = async (actor: Actor) => {
    const rows: string[][] = [];
    for await (const row of exportRequirementRows({ ...ctx.deps, hostClient }, actor, GLOBAL)) rows.push(row);
    const column = rows[0]?.indexOf("Linked issues") ?? -1;
    return rows.slice(1).map((row) => row[column]);
  };

  it("shows an administrator both issues", async () => {
    const xml = await wordExport(administrator());
    expect(xml).toContain(">PUMP-1<");
    expect(xml).toContain(">ROVER-1<");
    expect(await csvLinkedIssues(administrator())).toEqual(["PUMP-1, ROVER-1"]);
  });

  it("leaves ROVER-1 out of Noor Haddad's, as if it were not linked", async () => {
    const xml = await wordExport(noor());
    expect(xml).toContain("Stop safely on any fault");
    expect(xml).toContain(">PUMP-1<");
    expect(xml).not.toContain("ROVER");
    expect(await csvLinkedIssues(noor())).toEqual(["PUMP-1"]);
  });
});
