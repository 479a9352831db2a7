import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** Shaped like Jira's own export: Summary and Issue key, repeated Component/s, a quoted multi-line cell, a formula-looking name. */
const JIRA_CSV = [
  "\uFEFFSummary,Issue key,Issue Type,Status,Component/s,Component/s,Description,Sprint",
  'Alarm within 30 s,PUMP-901,Story,To Do,Alarms,User interface,"Raise it loudly,\nthen log it",Sprint 1',
  '"=HYPERLINK(""x"") stays text",PUMP-902,Bug,Done,,,,Sprint 2',
  "Battery shown on every screen,PUMP-903,Task,In Progress,User interface,,,",
].join("\r\n");

describe("Import and export of requirements as CSV in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();

  it("imports a Jira-style CSV through the dialog into a nested folder, and the requirements appear in it, opened", async () => {
    const parent = await screen.createFolder("Imported from Jira");
    const folder = await screen.createFolder("Sprint 1 backlog", { parentFolderId: parent.folder_id });
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();

    const alerted = new Promise<string>((resolve) =>
      screen.page.once("dialog", (alert) => {
        resolve(alert.message());
        void alert.dismiss();
      }),
    );
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await dialog.getByText("No file selected", { exact: true }).waitFor();
    expect(await alerted).toBe("No file selected.");

    await dialog.locator('input[type="file"]').setInputFiles({ name: "jira.csv", mimeType: "text/csv", buffer: Buffer.from(JIRA_CSV) });
    const mapped = dialog.getByRole("table", { name: "Mapped columns" });
    await mapped.getByRole("row", { name: /Name ← Summary/ }).waitFor();
    await mapped.getByRole("row", { name: /ID ← Issue key/ }).waitFor();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await dialog.getByText("Required", { exact: true }).waitFor();
    await screen.chooseOption("Requirement type", "Business");
    await expect(dialog.getByText("Required", { exact: true }).count()).resolves.toBe(0);
    await dialog.getByRole("checkbox", { name: "Sprint" }).check();
    const importInto = dialog.getByRole("radiogroup", { name: "Import into" });
    expect(await importInto.getByRole("radio", { name: "Top Level" }).isChecked()).toBe(true);
    await importInto.getByRole("button", { name: "Expand Imported from Jira" }).click();
    await importInto.getByRole("radio", { name: "Sprint 1 backlog" }).check();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();

    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => screen.treeItem("Imported from Jira").getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => screen.treeItem("Sprint 1 backlog").getAttribute("aria-expanded")).toBe("true");
    await screen.treeItem(/Alarm within 30 s/).waitFor();
    await screen.treeItem(/=HYPERLINK\("x"\) stays text/).waitFor();

    const inFolder = await screen.api<{ items: { name: string; display_id?: string | null }[] }>(
      "GET",
      `/api/item/${folder.folder_id}/descendant?atlassian_project_id=${PUMP}`,
    );
    expect(inFolder.items.map((item) => item.display_id)).toEqual(["PUMP-901", "PUMP-902", "PUMP-903"]);
    const alarm = await screen.api<{ requirements: { requirement_id: number; name: string }[] }>(
      "GET",
      `/api/requirement?atlassian_project_id=${PUMP}`,
    );
    const id = alarm.requirements.find((requirement) => requirement.name === "Alarm within 30 s")?.requirement_id;
    const detail = await screen.api<{ description: string; components: unknown[]; status: unknown }>("GET", `/api/requirement/${id}`);
    expect(detail.description).toBe("Raise it loudly,\nthen log it\n\nSprint: Sprint 1");
    expect(detail.components).toHaveLength(2);
    expect(detail.status).not.toBeNull();
  });

  it("shows the progress of a large file as completed of total rows", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    await screen.chooseOption("Requirement type", "Stakeholder");
    const csv = ["Name,ID", ...Array.from({ length: 5000 }, (_, index) => `Bulk requirement ${index},BULK-${index}`)].join("\n");
    await dialog.locator('input[type="file"]').setInputFiles({ name: "bulk.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog.getByRole("table", { name: "Mapped columns" }).waitFor();
    // A fast import shows its progress only between two polls before the dialog closes: keep every text it showed.
    await screen.frame.evaluate(() => {
      const shown: string[] = [];
      Object.assign(window, { importProgressShown: shown });
      new MutationObserver(() => {
        for (const status of document.querySelectorAll('[role="dialog"] [role="status"]')) shown.push(status.textContent ?? "");
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await screen.flag("Requirements imported successfully").waitFor({ timeout: 120_000 });
    const shown = await screen.frame.evaluate(() => (window as unknown as { importProgressShown: string[] }).importProgressShown);
    expect(shown).toContainEqual(expect.stringMatching(/^Importing: \d+ of 5000 rows$/));
    const stakeholder = (await screen.types()).find((type) => type.name === "Stakeholder");
    // The list answers pages of at most 1000 (issue 37): read them all.
    const all: { requirement_type_id: number }[] = [];
    for (let offset = 0, more = true; more; offset += 1000) {
      const page = await screen.api<{ requirements: { requirement_type_id: number }[]; has_more: boolean }>(
        "GET",
        `/api/requirement?atlassian_project_id=${PUMP}&offset=${offset}&limit=1000`,
      );
      all.push(...page.requirements);
      more = page.has_more;
    }
    expect(all.filter((requirement) => requirement.requirement_type_id === stakeholder?.requirement_type_id)).toHaveLength(5000);
  });

  it("keeps Import disabled for a file without a Name column, saying why, until a file with one is chosen", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    const importButton = dialog.getByRole("button", { name: "Import", exact: true });
    const file = dialog.locator('input[type="file"]');
    await file.setInputFiles({ name: "titles.csv", mimeType: "text/csv", buffer: Buffer.from("Title,ID\nPump stops,P-1\n") });
    await dialog.getByText("The file has no Name column (Name or Summary).").waitFor();
    await expect.poll(() => importButton.isDisabled()).toBe(true);
    await file.setInputFiles({ name: "names.csv", mimeType: "text/csv", buffer: Buffer.from("Name,ID\nPump stops,P-1\n") });
    await dialog
      .getByRole("table", { name: "Mapped columns" })
      .getByRole("row", { name: /Name ← Name/ })
      .waitFor();
    await expect.poll(() => importButton.isDisabled()).toBe(false);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("shows each bad row and imports nothing, not even the Folder column's folders", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    await screen.chooseOption("Requirement type", "Business");
    const csv = "Name,ID,Component/s,folder\nGood row,G-1,Alarms,Never created / Below\n,,Alarms,\nThird,G-1,,\n";
    await dialog.locator('input[type="file"]').setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog
      .getByRole("table", { name: "Mapped columns" })
      .getByRole("row", { name: /Folder ← folder/ })
      .waitFor();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await screen.flag(/There was a problem importing your requirements: Row 3: Name is required/).waitFor({ timeout: 60_000 });
    const errors = dialog.getByRole("list", { name: "Row errors" });
    await errors.getByText("Row 3: Name is required").waitFor();
    await errors.getByText('Row 4: ID "G-1" is already used in row 2').waitFor();
    const all = await screen.api<{ requirements: { name: string }[] }>("GET", `/api/requirement?atlassian_project_id=${PUMP}`);
    expect(all.requirements.map((requirement) => requirement.name)).not.toContain("Good row");
    const topLevel = await screen.api<{ folders: { name: string }[] }>("GET", `/api/folder/primary?atlassian_project_id=${PUMP}`);
    expect(topLevel.folders.map((folder) => folder.name)).not.toContain("Never created");
  });

  it("exports the project as a dated CSV file from the Export dialog", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Export requirements" }).click();
    const dialog = screen.dialog();
    const [download] = await Promise.all([
      screen.page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Export", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`rmcloud-requirements-${new Date().toISOString().slice(0, 10)}.csv`);
    const rows: string[][] = parse(await readFile((await download.path()) as string), { bom: true });
    expect(rows[0]?.slice(0, 6)).toEqual(["ID", "Name", "Description", "Type", "Status", "Assignee"]);
    const alarm = rows.find((row) => row[1] === "Alarm within 30 s");
    expect(alarm?.[0]).toBe("BR-PUMP-901");
    expect(alarm?.[4]).toBe("To Do");
    expect(alarm?.slice(6, 8)).toEqual(["Alarms", "User interface"]);
    expect(alarm?.[rows[0]?.indexOf("Folder") ?? -1]).toBe("Imported from Jira / Sprint 1 backlog");
    expect(rows[0]?.at(-1)).toBe("Suspect links");
    expect(rows.find((row) => row[0] === "BR-PUMP-902")?.[1]).toBe('\'=HYPERLINK("x") stays text');
  });
});
