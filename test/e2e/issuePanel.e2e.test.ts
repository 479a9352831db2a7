import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addonApi, addonFrame, type Harness, startHarness, signedInToken } from "./harness.js";
import { createRequirementAs } from "./requirementsFixture.js";

const PANEL = "issue-view-requirements-right-panel";
const DIALOG = "link-requirements-dialog";

describe("The issue panel in the emulated Jira issue view", () => {
  let harness: Harness;
  let page: Page;
  let panel: Frame;
  let token: string;
  let issueId: string;

  /** rmCloud's API as the signed-in user of the panel. */
  const api = <T = unknown>(method: string, path: string, body?: unknown) => addonApi<T>(harness.addonUrl, token, method, path, body);

  const openIssue = async () => {
    await page.goto(`${harness.emulatorUrl}/browse/PUMP-1`);
    panel = await addonFrame(page, harness.addonUrl, PANEL);
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await panel.getByRole("button", { name: "Edit" }).waitFor({ timeout: 90_000 });
  };

  beforeAll(async () => {
    harness = await startHarness();
    page = await harness.newPage();
    await openIssue();
    token = await signedInToken(panel);
    issueId = new URL(panel.url()).searchParams.get("issueId") ?? "";
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const createRequirement = (name: string, project: number) => createRequirementAs(harness.addonUrl, token, name, project);

  it("lists the requirements linked to the issue, each opening the add-on's page in a new tab", async () => {
    expect(token).not.toBe("");
    const pumpStops = await createRequirement("The pump stops on occlusion", 10000);
    const audited = await createRequirement("Every change is audited", 0);
    await api("PUT", `/api/issue/${issueId}`, { requirements: [pumpStops.requirement_id, audited.requirement_id] });

    await openIssue();
    const link = panel.getByRole("link", { name: "The pump stops on occlusion" });
    await link.waitFor();
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("href")).toContain(`ac.requirementId=${pumpStops.requirement_id}`);
    await panel.getByRole("link", { name: "Every change is audited" }).waitFor();
  });

  it("Edit opens 'Update linked requirements' offering the project's and the global requirements; saving there updates the panel and the requirement's detail, keeping a link made meanwhile", async () => {
    const alarm = await createRequirement("An alarm sounds on occlusion", 10000);
    const meanwhile = await createRequirement("The battery lasts eight hours", 10000);
    await createRequirement("Audit logs are kept for ten years", 0);
    await panel.getByRole("button", { name: "Edit" }).click();
    const dialogBox = page.getByRole("dialog");
    await expect(dialogBox.locator("h2").textContent()).resolves.toBe("Update linked requirements");

    const dialog = await addonFrame(page, harness.addonUrl, DIALOG);
    const select = dialog.locator("#link-requirements-select");
    await dialog.getByText("The pump stops on occlusion").waitFor({ timeout: 60_000 });
    await select.fill("Audit logs");
    await dialog.getByText("Audit logs are kept for ten years", { exact: false }).last().waitFor();
    await select.fill("An alarm");
    await dialog.getByText("An alarm sounds on occlusion", { exact: false }).last().click();
    // Someone else links another requirement to the issue while the dialog is open.
    await api("PUT", `/api/requirement/${meanwhile.requirement_id}`, { name: "The battery lasts eight hours", issues: [issueId] });
    await dialogBox.locator('button[data-identifier="submit"]').click();

    await page.getByText("Linked requirements saved successfully").waitFor();
    await panel.getByRole("link", { name: "An alarm sounds on occlusion" }).waitFor();

    await panel.getByRole("link", { name: "The battery lasts eight hours" }).waitFor();
    const detail = await api<{ issues: unknown }>("GET", `/api/requirement/${alarm.requirement_id}`);
    expect(detail.issues).toEqual([{ atlassian_issue_id: issueId }]);
    const kept = await api<{ issues: unknown }>("GET", `/api/requirement/${meanwhile.requirement_id}`);
    expect(kept.issues).toEqual([{ atlassian_issue_id: issueId }]);

    const screen = await harness.newPage();
    await screen.goto(
      `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=10000#!10000-requirements-${alarm.requirement_id}`,
    );
    const requirements = await addonFrame(screen, harness.addonUrl);
    const article = requirements.getByRole("article", { name: /An alarm sounds on occlusion/ });
    await article.getByRole("link", { name: "PUMP-1", exact: true }).waitFor({ timeout: 60_000 });
    await screen.close();
  });
});
