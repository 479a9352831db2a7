import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirementLabel } from "../../common/labels.js";
import { coverageOf, uncoveredRequirements } from "../../server/db/coverageStore.js";
import { PUMP, seedPumpDemo } from "./demoProject.js";
import { addonFrame, type Harness, startHarness } from "./harness.js";

describe("Coverage of the demo project in the emulated Jira (issue 34)", () => {
  let harness: Harness;
  let page: Page;
  let frame: Frame;
  let tenantId: string;
  let firmwareFolderId: number;

  const open = async (state: string, ready: (frame: Frame) => Promise<void>) => {
    await page.goto("about:blank");
    await page.goto(
      `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${PUMP}-${state}`,
    );
    frame = await addonFrame(page, harness.addonUrl);
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await ready(frame).catch(async () => ready(frame));
  };
  const coverage = () => frame.getByRole("region", { name: "Coverage" });
  const figure = (label: string) => coverage().locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
  const treeItems = () => frame.getByRole("tree", { name: "Requirements and folders" }).getByRole("treeitem");

  beforeAll(async () => {
    harness = await startHarness();
    const seeded = await seedPumpDemo(harness);
    tenantId = seeded.tenantId;
    const accountId = seeded.accountId;
    // Every demo requirement has an issue: two without one, one of them in the Firmware folder.
    const db = harness.addonDeps.db;
    const folder = await db("folders").where({ tenant_id: tenantId, project_id: PUMP, name: "Firmware" }).first("folder_id");
    firmwareFolderId = Number(folder.folder_id);
    const typeOf = async (level: number) =>
      Number(
        (await db("requirement_types").where({ tenant_id: tenantId, level }).orderBy("requirement_type_id").first("requirement_type_id"))
          .requirement_type_id,
      );
    await db("requirements").insert([
      {
        tenant_id: tenantId,
        project_id: PUMP,
        requirement_type_id: await typeOf(2),
        name: "Alarm volume is adjustable",
        parent_folder_id: null,
        created_by: accountId,
      },
      {
        tenant_id: tenantId,
        project_id: PUMP,
        requirement_type_id: await typeOf(4),
        name: "Battery gauge calibrates at start-up",
        parent_folder_id: firmwareFolderId,
        created_by: accountId,
      },
    ]);
    page = await harness.newPage();
    // A cold start (Vite optimising its dependencies on a busy machine) can outlast the default hook time.
  }, 240_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("shows the project's figures and chart above the traceability matrix", async () => {
    const expected = await coverageOf(harness.addonDeps.db, tenantId, { projectIds: [PUMP] });
    await open("traceability", (f) => f.getByRole("table", { name: "Traceability matrix" }).waitFor({ timeout: 90_000 }));
    await expect.poll(() => figure("Requirements").textContent()).toBe(String(expected.requirements));
    const percent = Math.round((expected.with_issues / expected.requirements) * 100);
    expect(await figure("With a linked issue").textContent()).toBe(`${expected.with_issues} of ${expected.requirements} (${percent} %)`);
    for (const level of expected.levels) {
      const shown = await figure(`Level ${level.level} covered by level ${level.level + 1}`).textContent();
      expect(shown).toMatch(new RegExp(`^${level.covered_by_next_level} of ${level.requirements} `));
    }
    expect(await figure("Linked issues done").textContent()).toMatch(/^\d+$/);
    const chart = coverage().getByRole("figure", { name: "Coverage chart" });
    await chart.locator(".recharts-bar-rectangle").first().waitFor();
    expect(await chart.locator(".recharts-legend-item-text").allTextContents()).toEqual(["Covered", "Uncovered"]);
    const [figures, matrix] = await Promise.all([
      coverage().boundingBox(),
      frame.getByRole("table", { name: "Traceability matrix" }).boundingBox(),
    ]);
    expect(figures && matrix && figures.y + figures.height <= matrix.y).toBe(true);
  });

  it("opens the tree filtered to the requirements without issues from the figure, and back to every requirement", async () => {
    await coverage().getByRole("button", { name: "Uncovered by issues: 2" }).click();
    await frame.getByRole("status").filter({ hasText: "Uncovered by issues: 2 requirements" }).waitFor();
    await expect
      .poll(() => treeItems().allTextContents())
      .toEqual([expect.stringMatching(/: Alarm volume is adjustable$/), expect.stringMatching(/: Battery gauge calibrates at start-up$/)]);

    await frame.getByRole("button", { name: "All requirements" }).click();
    await treeItems().filter({ hasText: "Firmware" }).waitFor();
    expect(await frame.getByRole("status").filter({ hasText: "Uncovered" }).count()).toBe(0);
  });

  it("filters the tree to the requirements not covered by the next level, a page at a time from the server", async () => {
    const expected = await uncoveredRequirements(harness.addonDeps.db, tenantId, { projectIds: [PUMP] }, "next_level", {
      offset: 0,
      limit: 1000,
    });
    await frame.getByRole("button", { name: "Uncovered by next level" }).click();
    await frame
      .getByRole("status")
      .filter({ hasText: `Uncovered by next level: ${expected.total} ${expected.total === 1 ? "requirement" : "requirements"}` })
      .waitFor();
    await expect.poll(() => treeItems().allTextContents()).toEqual(expected.rows.map((row) => requirementLabel(row)));
    await frame.getByRole("button", { name: "All requirements" }).click();
  });

  it("shows a folder's figures in its detail, and its uncovered requirements in the tree", async () => {
    const expected = await coverageOf(harness.addonDeps.db, tenantId, { projectIds: [PUMP], folderIds: [firmwareFolderId] });
    await open(`folder-${firmwareFolderId}`, (f) => f.getByRole("article", { name: "Firmware" }).waitFor({ timeout: 90_000 }));
    await expect.poll(() => figure("Requirements").textContent()).toBe(String(expected.requirements));
    expect(await figure("With a linked issue").textContent()).toMatch(new RegExp(`^${expected.with_issues} of ${expected.requirements} `));
    await coverage().getByRole("figure", { name: "Coverage chart" }).locator(".recharts-bar-rectangle").first().waitFor();

    await coverage().getByRole("button", { name: "Uncovered by issues: 1" }).click();
    await frame.getByRole("status").filter({ hasText: "Uncovered by issues: 1 requirement in folder Firmware" }).waitFor();
    await expect.poll(() => treeItems().allTextContents()).toEqual([expect.stringMatching(/: Battery gauge calibrates at start-up$/)]);
  });
});
