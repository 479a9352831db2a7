import { describe, expect, it } from "vitest";
import { DEFAULT_SITE } from "../../emulator/sites.js";
import { addonFrame } from "./harness.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

const PANEL = "issue-view-requirements-right-panel";

describe("Suspect links (issue 34) in the emulated Jira", () => {
  const screen = requirementsScreenForSuite();

  it("turns a renamed requirement's links suspect in its detail, the issue panel and the matrix; reviewing one clears it", async () => {
    const issue = screen.harness.sites.get(DEFAULT_SITE)?.content.issues.find((candidate) => candidate.key === "PUMP-1");
    if (!issue) throw new Error("The emulator has no PUMP-1");
    const business = await screen.createRequirement("Doses are confirmed before they start", { level: 1 });
    const stakeholder = await screen.createRequirement("Nurses confirm each dose", { level: 2, links: [business.requirement_id] });
    await screen.api("PUT", `/api/issue/${issue.id}`, { requirements: [business.requirement_id] });

    await screen.open(`${PUMP}-requirements-${business.requirement_id}`, { page: screen.page });
    await screen
      .detail(/Doses are confirmed/)
      .getByRole("button", { name: "Edit" })
      .click();
    await screen.dialog().getByLabel(/^Name/).fill("Doses are confirmed twice before they start");
    await screen.dialog().getByRole("button", { name: "OK" }).click();
    await screen.flag("Requirement edited successfully").waitFor();

    // The detail warns, and marks the requirement link and the issue link.
    const detail = screen.detail(/Doses are confirmed twice/);
    await detail.getByText("2 links are suspect").waitFor();
    const requirementMarker = detail.getByRole("button", { name: /^Suspect link to .*Nurses confirm each dose: review the change$/ });
    await requirementMarker.waitFor();
    await detail.getByRole("button", { name: `Suspect link to issue ${issue.id}: review the change` }).waitFor();

    // The issue panel names the requirement that changed since its link was reviewed.
    const issuePage = await screen.harness.newPage();
    await issuePage.goto(`${screen.harness.emulatorUrl}/browse/PUMP-1`);
    const panel = await addonFrame(issuePage, screen.harness.addonUrl, PANEL);
    await panel.getByText("1 requirement changed since the link to this issue was last reviewed.").waitFor({ timeout: 90_000 });
    const panelRow = panel.getByRole("row").filter({ hasText: "Doses are confirmed twice" });
    await panelRow.getByText("⚠ Suspect").waitFor();

    // The matrix marks the row and its issue's cell, and filters to requirements with suspect links.
    const matrixPage = await screen.harness.newPage();
    await matrixPage.goto(
      `${screen.harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${PUMP}-traceability`,
    );
    const matrix = await addonFrame(matrixPage, screen.harness.addonUrl);
    await matrix.getByRole("table", { name: "Traceability matrix" }).waitFor({ timeout: 90_000 });
    await matrix.getByLabel("Suspect links only").check();
    const matrixRow = matrix.getByRole("row").filter({ hasText: "Doses are confirmed twice" });
    await matrixRow.locator('td[data-suspect="true"]').filter({ hasText: issue.key }).waitFor();
    await matrix.getByRole("row").filter({ hasText: "Nurses confirm each dose" }).waitFor();
    await expect.poll(() => matrix.getByRole("row").count()).toBe(1 + 2);

    // Reviewing the requirement link shows the change word by word, then clears it on both ends.
    await requirementMarker.click();
    const review = screen.dialog();
    await review.getByRole("table", { name: /^Changes of / }).waitFor();
    await review.locator("ins", { hasText: "twice" }).first().waitFor();
    await review.getByRole("button", { name: "Mark as reviewed" }).click();
    await screen.flag("The link was marked as reviewed").waitFor();
    await expect.poll(() => requirementMarker.count()).toBe(0);
    await detail.getByText("1 link is suspect").waitFor();
    const activity = screen.frame.getByRole("region", { name: "Activity" });
    await activity.getByText(`Suspect link to Requirement ${stakeholder.requirement_id} marked as reviewed`).waitFor();

    const other = await screen.api<{ suspect_links: unknown[] }>("GET", `/api/requirement/${stakeholder.requirement_id}`);
    expect(other.suspect_links).toEqual([]);
    await issuePage.close();
    await matrixPage.close();
  }, 240_000);
});
