import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANOTHER_SITE, addonApi, addonFrame, type Harness, signedInToken, startHarness } from "./harness.js";
import { createRequirementAs } from "./requirementsFixture.js";

/**
 * rmCloud is always another site than the Jira that frames it. A browser that blocks third-party
 * site data (Chrome's incognito windows by default) denies such a frame its session and local
 * storage, as headless Chromium does here: the add-on is reached as ANOTHER_SITE, the emulated
 * Jira as localhost.
 */
describe("In a browser that denies the add-on's iframes their storage", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ addonHost: ANOTHER_SITE });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it("the issue panel lists the issue's requirements and the requirements page shows its tree", async () => {
    const page = await harness.newPage();
    await page.goto(`${harness.emulatorUrl}/browse/PUMP-1`);
    const panel = await addonFrame(page, harness.addonUrl, "issue-view-requirements-right-panel");
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await panel.getByRole("button", { name: "Edit" }).waitFor({ timeout: 90_000 });
    const denied = await panel.evaluate(() => {
      try {
        return sessionStorage.length < 0;
      } catch {
        return true;
      }
    });
    expect(denied).toBe(true);
    const token = await signedInToken(panel);
    const issueId = new URL(panel.url()).searchParams.get("issueId") ?? "";
    const requirement = await createRequirementAs(harness.addonUrl, token, "The pump stops on occlusion", 10000);
    await addonApi(harness.addonUrl, token, "PUT", `/api/issue/${issueId}`, { requirements: [requirement.requirement_id] });

    await page.reload();
    const reloaded = await addonFrame(page, harness.addonUrl, "issue-view-requirements-right-panel");
    await reloaded.getByRole("link", { name: "The pump stops on occlusion" }).waitFor();

    await page.goto(`${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=10000`);
    const main = await addonFrame(page, harness.addonUrl);
    await main.getByRole("treeitem", { name: /The pump stops on occlusion/ }).waitFor({ timeout: 90_000 });
  });
});
