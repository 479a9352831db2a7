import { describe, expect, it } from "vitest";
import { requirementsScreenForSuite } from "./requirementsFixture.js";

describe("Searching requirements in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();

  it("searches by the beginnings of words, shows the found words highlighted and opens a result inside closed folders in the tree", async () => {
    const hydraulics = await screen.createFolder("Hydraulics");
    const valves = await screen.createFolder("Valves", { parentFolderId: hydraulics.folder_id });
    const relief = await screen.createRequirement("Relief valve opens at 8 bar", { folderId: valves.folder_id });
    await screen.api("PUT", `/api/requirement/${relief.requirement_id}`, {
      name: "Relief valve opens at 8 bar",
      description: "Protects the hoses when the outlet is blocked.",
    });
    await screen.createRequirement("Valve housing is stainless steel");
    await screen.page.reload();
    await screen.open("10000-requirements", { page: screen.page });

    const search = screen.frame.getByLabel("Search requirements");
    await search.fill("reli val");
    const results = screen.frame.getByRole("list", { name: "Search results" });
    const first = results.getByRole("listitem").first();
    await expect.poll(() => first.textContent(), { timeout: 30_000 }).toContain("Relief valve opens at 8 bar");
    await expect(first.locator("mark").allTextContents()).resolves.toEqual(["Relief", "valve"]);
    expect(await results.getByRole("listitem").count()).toBe(1);

    await search.fill("hoses");
    await expect.poll(() => first.locator("mark").allTextContents(), { timeout: 30_000 }).toEqual(["hoses"]);
    await first.getByRole("button").click();

    await screen.detail(/Relief valve opens at 8 bar/).waitFor();
    await screen.treeItem("Valves").waitFor();
    await screen.treeItem("Relief valve opens at 8 bar").waitFor();
    await expect(results.count()).resolves.toBe(0);
  });

  it("finds a requirement by its ID in the link picker of the requirement form", async () => {
    const target = await screen.createRequirement("Nurses hear the alarm", { level: 2 });
    const prefix = (await screen.typeOfLevel(2)).prefix;
    await screen.frame.getByRole("button", { name: "New requirement" }).click();
    const dialog = screen.dialog();
    await dialog.getByLabel(/^Name/).fill("The alarm is 70 dB");
    await screen.chooseOption("Requirement type", "Business");
    await dialog.getByLabel("Linked requirements").fill(`${prefix}-${target.requirement_id}`);
    const label = `${prefix}-${target.requirement_id}: Nurses hear the alarm`;
    await expect.poll(() => screen.frame.getByRole("option").first().textContent(), { timeout: 30_000 }).toBe(label);
    await screen.frame.getByRole("option", { name: label }).click();
    await dialog.getByRole("button", { name: "OK" }).click();

    await screen.flag("Requirement created successfully").waitFor();
    await screen
      .detail(/The alarm is 70 dB/)
      .getByRole("link", { name: label })
      .waitFor();
  });

  it("picks individual requirements for a baseline by typing words, without the project's list", async () => {
    const chosen = await screen.createRequirement("Flow sensor calibration");
    await screen.frame.getByRole("tab", { name: "Baselines" }).click();
    await screen.frame.getByRole("button", { name: "Create baseline" }).click();
    const dialog = screen.dialog();
    await dialog.getByLabel(/^Name/).fill("Calibration only");
    await dialog.getByRole("radio", { name: "Individual requirements" }).check();
    await dialog.getByLabel("Requirements", { exact: true }).fill("flow calib");
    const label = `BR-${chosen.requirement_id}: Flow sensor calibration`;
    await expect.poll(() => screen.frame.getByRole("option").allTextContents(), { timeout: 30_000 }).toEqual([label]);
    await screen.frame.getByRole("option", { name: label }).click();
    await dialog.getByRole("button", { name: "OK" }).click();

    await screen.flag("Baseline created successfully").waitFor();
    const rows = screen.frame
      .getByRole("region", { name: "Baseline Calibration only" })
      .getByRole("table", { name: "Requirements in baseline" })
      .locator("tbody tr", { hasText: /\S/ });
    await expect.poll(() => rows.allTextContents()).toEqual([`BR-${chosen.requirement_id}Flow sensor calibration`]);
  });
});
