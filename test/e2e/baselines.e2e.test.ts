import { describe, expect, it } from "vitest";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

describe("Baselines in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();
  const tab = (name: string) => screen.frame.getByRole("tab", { name });

  async function createBaseline(name: string, description = "") {
    await screen.frame.getByRole("button", { name: "Create baseline" }).click();
    const dialog = screen.dialog();
    await expect(dialog.getByRole("button", { name: "OK" }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel(/^Name/).fill(name);
    if (description) await dialog.getByLabel("Description").fill(description);
    await dialog.getByRole("button", { name: "OK" }).click();
    await screen.flag("Baseline created successfully").waitFor();
    await screen.frame.getByRole("region", { name: `Baseline ${name}` }).waitFor();
  }

  async function choose(label: string, option: string | RegExp) {
    await screen.frame.getByLabel(label).click();
    await screen.frame.getByRole("option", { name: option }).first().click();
  }

  it("takes a baseline, edits a requirement, takes another, and the comparison shows exactly that change with the changed words marked", async () => {
    const kept = await screen.createRequirement("Alarm on occlusion");
    const edited = await screen.createRequirement("Pump stops");
    await screen.api("PUT", `/api/requirement/${edited.requirement_id}`, {
      name: "Pump stops",
      description: "The pump stops when the line is blocked",
    });

    await tab("Baselines").click();
    await createBaseline("Before the change");
    const first = screen.frame.getByRole("region", { name: "Baseline Before the change" });
    const details = first.getByRole("table", { name: "Baseline details" });
    await expect.poll(() => details.locator("tr", { hasText: "Description" }).locator("td").textContent()).toBe("No description");
    await expect(details.locator("tr", { hasText: "ID" }).locator("td").textContent()).resolves.toMatch(/^B\d+$/);
    const rows = first.getByRole("table", { name: "Requirements in baseline" }).locator("tbody tr", { hasText: /\S/ });
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([`BR-${kept.requirement_id}Alarm on occlusion`, `BR-${edited.requirement_id}Pump stops`]);

    await tab("Requirements").click();
    await screen.treeItem(`BR-${edited.requirement_id}: Pump stops`).click();
    await screen
      .detail(/Pump stops/)
      .getByRole("button", { name: "Edit" })
      .click();
    const dialog = screen.dialog();
    await dialog.getByLabel(/^Name/).fill("Pump stops at once");
    await dialog.getByLabel("Description").fill("The pump stops immediately when the line is blocked");
    await dialog.getByRole("button", { name: "OK" }).click();
    await screen.flag("Requirement edited successfully").waitFor();

    await tab("Baselines").click();
    await createBaseline("After the change", "Pump stop reworded");
    await expect
      .poll(() =>
        screen.frame
          .getByRole("region", { name: "Baseline After the change" })
          .getByRole("table", { name: "Baseline details" })
          .locator("tr", { hasText: "Description" })
          .locator("td")
          .textContent(),
      )
      .toBe("Pump stop reworded");
    const names = screen.frame.getByRole("navigation", { name: "Baselines" }).locator("strong");
    await expect.poll(() => names.allTextContents()).toEqual(["After the change", "Before the change"]);

    await screen.frame.getByRole("button", { name: "Baseline Comparison" }).click();
    const compare = screen.frame.getByRole("button", { name: "Compare" });
    await expect(compare.isDisabled()).resolves.toBe(true);
    await choose("Baseline 1", /Before the change/);
    await expect(compare.isDisabled()).resolves.toBe(true);
    await choose("Baseline 2", /After the change/);
    await compare.click();

    const changed = screen.frame.getByRole("region", { name: `BR-${edited.requirement_id}: Pump stops at once` });
    await changed.waitFor();
    await expect(screen.frame.locator("section[data-status]").count()).resolves.toBe(1);
    await expect(changed.getByText("Changed", { exact: true }).count()).resolves.toBe(1);
    const changedRows = await changed.locator("tr[data-changed] th").allTextContents();
    expect(changedRows).toEqual(["Name", "Description"]);
    const description = changed.locator('tr[data-field="description"]');
    await expect(description.locator("del").allTextContents()).resolves.toEqual([]);
    await expect(
      description
        .locator("ins")
        .allTextContents()
        .then((texts) => texts.map((text) => text.trim())),
    ).resolves.toEqual(["immediately"]);
    const name = changed.locator('tr[data-field="name"] td');
    await expect(name.allTextContents()).resolves.toEqual(["Pump stops", "Pump stops at once"]);

    await screen.frame.getByLabel("Show unchanged requirements").check({ force: true });
    await screen.frame.getByRole("region", { name: `BR-${kept.requirement_id}: Alarm on occlusion` }).waitFor();
    await expect(screen.frame.locator("section[data-status]").count()).resolves.toBe(2);
  });

  it("keeps the open baseline in the host history; back and forward re-apply it; a delete after confirmation deletes the baseline it was opened for and clears it", async () => {
    await screen.frame.getByRole("button", { name: "Baseline Explorer" }).click();
    await expect.poll(() => decodeURIComponent(screen.page.url())).toMatch(new RegExp(`#!${PUMP}-baselines$`));
    const list = screen.frame.getByRole("navigation", { name: "Baselines" });
    await list.getByRole("button", { name: /Before the change/ }).click();
    await screen.frame.getByRole("region", { name: "Baseline Before the change" }).waitFor();
    await list.getByRole("button", { name: /After the change/ }).click();
    const detail = screen.frame.getByRole("region", { name: "Baseline After the change" });
    await detail.waitFor();
    expect(decodeURIComponent(screen.page.url())).toMatch(new RegExp(`#!${PUMP}-baselines-\\d+$`));
    await screen.page.goBack();
    await screen.frame.getByRole("region", { name: "Baseline Before the change" }).waitFor();
    await screen.page.goForward();
    await detail.waitFor();

    await detail.getByRole("button", { name: "Delete" }).click();
    const confirm = screen.dialog();
    await confirm.getByText(/After the change/).waitFor();
    // Back with the dialog open shows the other baseline behind it; the dialog still deletes the one it was opened for.
    await screen.page.goBack();
    await screen.frame.getByRole("region", { name: "Baseline Before the change" }).waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await screen.flag("Baseline deleted successfully").waitFor();
    await expect.poll(() => list.getByRole("button").count()).toBe(1);
    await list.getByRole("button", { name: /Before the change/ }).waitFor();
    expect(decodeURIComponent(screen.page.url())).toMatch(new RegExp(`#!${PUMP}-baselines$`));
  });

  it("names a compared requirement's suspect links by the linked requirement's ID and name, as its other rows do", async () => {
    const goal = await screen.createRequirement("Infusions are logged", { level: 1 });
    const detail = await screen.createRequirement("Each dose is logged", { level: 2, links: [goal.requirement_id] });
    await screen.api("POST", "/api/baseline", { name: "Links reviewed", project: PUMP, select_all_requirements: true });
    await screen.api("PUT", `/api/requirement/${goal.requirement_id}`, { name: "Infusions are logged with their rate" });
    await screen.api("POST", "/api/baseline", { name: "Goal reworded", project: PUMP, select_all_requirements: true });

    await tab("Baselines").click();
    await screen.frame.getByRole("button", { name: "Baseline Comparison" }).click();
    await choose("Baseline 1", /Links reviewed/);
    await choose("Baseline 2", /Goal reworded/);
    await screen.frame.getByRole("button", { name: "Compare" }).click();
    const compared = screen.frame.getByRole("region", { name: new RegExp(`-${detail.requirement_id}: Each dose is logged$`) });
    const suspect = compared.locator('tr[data-field="suspect_links"] td');
    await expect
      .poll(() => suspect.last().textContent())
      .toMatch(new RegExp(`^BR-${goal.requirement_id}: Infusions are logged.* \\(since revision \\d+\\)$`));
  });
});
