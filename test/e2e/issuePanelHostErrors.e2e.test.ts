import type { Frame, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOST_DATA_ERROR, HOST_TIMEOUT_MS } from "../../client/api/jira/hostData.js";
import { ASSIGNEES_LOAD_ERROR, COMPONENTS_LOAD_ERROR, PROJECTS_LOAD_ERROR, STATUSES_LOAD_ERROR } from "../../client/api/loadErrors.js";
import { addonApi, addonFrame, type Harness, startHarness, signedInToken } from "./harness.js";

const PUMP = 10000;
/** The issue search every Linked Issues lookup and issue picker goes through. */
const ISSUE_SEARCH = "/rest/api/3/search/jql";

describe("When Jira fails or is slow, Linked Issues says so instead of waiting forever", () => {
  let harness: Harness;
  let page: Page;
  let token = "";
  let requirementId = 0;

  const requirementsUrl = (state: string) =>
    `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${state}`;

  /** The requirement's detail, opened by its deep link in a new page (a goto that changes only the hash would not reload the add-on). */
  const openRequirement = async (): Promise<Frame> => {
    await page.context().close();
    page = await harness.newPage();
    await page.goto(requirementsUrl(`${PUMP}-requirements-${requirementId}`));
    const frame = await addonFrame(page, harness.addonUrl);
    await frame.getByRole("heading", { name: "Linked Issues" }).waitFor({ timeout: 90_000 });
    return frame;
  };

  const api = <T = unknown>(method: string, path: string, body?: unknown) => addonApi<T>(harness.addonUrl, token, method, path, body);

  /** The emulated Jira's issue, read as its signed-in user. */
  const issueId = async (key: string): Promise<string> => {
    const res = await fetch(`${harness.emulatorUrl}/rest/api/3/issue/${key}?fields=summary`, { headers: { cookie: "emulator_user=e2e" } });
    return ((await res.json()) as { id: string }).id;
  };

  const injectFault = async (fault: { status: number; delayMs?: number; times?: number; pathPattern?: string }) => {
    const res = await fetch(`${harness.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pathPattern: ISSUE_SEARCH, ...fault }),
    });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    harness = await startHarness();
    page = await harness.newPage();
    await page.goto(requirementsUrl(`${PUMP}-requirements`));
    const frame = await addonFrame(page, harness.addonUrl);
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await frame.getByRole("button", { name: "New requirement" }).waitFor({ timeout: 90_000 });
    token = await signedInToken(frame);

    const types = await api<{ requirement_types: { requirement_type_id: number }[] }>("GET", "/api/requirement/type");
    const created = await api<{ requirement_id: number }>("POST", "/api/requirement", {
      name: "The pump stops on occlusion",
      description: "",
      project: PUMP,
      parent_folder_id: null,
      requirement_type_id: types.requirement_types[0]?.requirement_type_id,
      issues: [await issueId("PUMP-1"), await issueId("PUMP-2")],
    });
    requirementId = created.requirement_id;
  });

  afterEach(async () => {
    await fetch(`${harness.emulatorUrl}/_emulator/faults`, { method: "DELETE" });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it("shows the linked issues when Jira answers", async () => {
    const frame = await openRequirement();
    await frame.getByRole("link", { name: "PUMP-1", exact: true }).waitFor();
    await frame.getByRole("link", { name: "PUMP-2", exact: true }).waitFor();
  });

  it("tells the user when Jira answers the issue search with an error", async () => {
    await injectFault({ status: 500 });
    const frame = await openRequirement();
    await frame.getByRole("alert").filter({ hasText: HOST_DATA_ERROR }).waitFor();
    expect(await frame.getByRole("link", { name: "PUMP-1", exact: true }).count()).toBe(0);
  });

  it("says when Jira's users, statuses or components fail to load, in the detail and in the edit form", async () => {
    const components = (await (
      await fetch(`${harness.emulatorUrl}/rest/api/3/project/${PUMP}/components`, { headers: { cookie: "emulator_user=e2e" } })
    ).json()) as { id: string; name: string }[];
    const saved = await api<{ name: string; revision: number }>("GET", `/api/requirement/${requirementId}`);
    await api("PUT", `/api/requirement/${requirementId}`, {
      name: saved.name,
      status: "3",
      components: [components[0]?.id],
      revision: saved.revision,
    });
    await injectFault({ status: 500, pathPattern: "^/rest/api/3/(user|status/|project/\\d+/(components|statuses))" });

    const frame = await openRequirement();
    // In the detail itself; the components' failure is also a toast, as everywhere the project's components are loaded.
    for (const message of [ASSIGNEES_LOAD_ERROR, STATUSES_LOAD_ERROR, COMPONENTS_LOAD_ERROR]) {
      await frame.getByRole("article").getByText(message, { exact: true }).waitFor();
    }
    const componentCell = frame
      .locator("tr")
      .filter({ has: frame.locator("th", { hasText: /^Components$/ }) })
      .locator("td");
    await expect(componentCell.textContent()).resolves.toBe(components[0]?.id);

    await frame.getByRole("button", { name: "Edit" }).click();
    await frame.getByRole("dialog").waitFor();
    for (const message of [ASSIGNEES_LOAD_ERROR, STATUSES_LOAD_ERROR, COMPONENTS_LOAD_ERROR]) {
      await expect.poll(() => frame.getByText(message, { exact: true }).count()).toBeGreaterThanOrEqual(2);
    }
  });

  it("says when Jira cannot list the projects, without the project dropdown being touched", async () => {
    await injectFault({ status: 500, pathPattern: "^/rest/api/3/project/search" });
    const frame = await openRequirement();
    await frame.getByText(PROJECTS_LOAD_ERROR, { exact: true }).waitFor();
  });

  it("gives up on a search Jira does not answer in time and says so, with no endless spinner", async () => {
    await injectFault({ status: 200, delayMs: HOST_TIMEOUT_MS + 10_000, times: 1 });
    const frame = await openRequirement();
    await frame
      .getByRole("alert")
      .filter({ hasText: HOST_DATA_ERROR })
      .waitFor({ timeout: HOST_TIMEOUT_MS + 5_000 });
    expect(await frame.getByText("Loading issues").count()).toBe(0);
  });
});
