import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** A workbook as Excel saves one: a cover sheet first, the requirements on the second tab. */
async function twoSheetWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Cover").addRows([["Summary"], ["Not a requirement"]]);
  workbook.addWorksheet("Requirements").addRows([
    ["Name", "ID", "Status", "Component/s", "Description"],
    ["Excel infusion limit", "XL-1", "To Do", "Alarms", "Line one\nline two"],
    ["=SUM(A1) stays text", "XL-2", "Done", "", ""],
  ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe("Import and export of requirements as Excel workbooks in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();

  it("imports the chosen sheet of an .xlsx through the mapping dialog, and the requirements appear", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "requirements.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: await twoSheetWorkbook(),
    });
    const mapped = dialog.getByRole("table", { name: "Mapped columns" });
    await mapped.getByRole("row", { name: /Name ← Summary/ }).waitFor({ timeout: 30_000 });
    await screen.chooseOption("Sheet", "Requirements");
    await mapped.getByRole("row", { name: /ID ← ID/ }).waitFor({ timeout: 30_000 });
    await mapped.getByRole("row", { name: /Status ← Status/ }).waitFor();
    await screen.chooseOption("Requirement type", "Business");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();

    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    await dialog.waitFor({ state: "detached" });
    await screen.treeItem(/Excel infusion limit/).waitFor();
    await screen.treeItem(/=SUM\(A1\) stays text/).waitFor();
    const all = await screen.api<{ requirements: { name: string; display_id: string | null }[] }>(
      "GET",
      `/api/requirement?atlassian_project_id=${PUMP}`,
    );
    expect(all.requirements.map((requirement) => requirement.name)).not.toContain("Not a requirement");
    expect(
      all.requirements
        .filter((requirement) => requirement.display_id?.startsWith("XL-"))
        .map((requirement) => requirement.name)
        .sort(),
    ).toEqual(["=SUM(A1) stays text", "Excel infusion limit"]);
  });

  it("exports the project as an .xlsx from the Export dialog, header frozen and filtered, texts as written", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Export requirements" }).click();
    const dialog = screen.dialog();
    await screen.chooseOption("Format", "Excel (.xlsx)");
    const [download] = await Promise.all([
      screen.page.waitForEvent("download", { timeout: 60_000 }),
      dialog.getByRole("button", { name: "Export", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`rmcloud-requirements-${new Date().toISOString().slice(0, 10)}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await readFile((await download.path()) as string)).buffer);
    const [sheet] = workbook.worksheets;
    expect(sheet?.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet?.autoFilter).toMatch(/^A1:[A-Z]+1$/);
    const rows = (sheet?.getSheetValues() ?? []).flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : []));
    expect(rows[0]?.slice(0, 6)).toEqual(["ID", "Name", "Description", "Type", "Status", "Assignee"]);
    expect(rows).toContainEqual(expect.arrayContaining(["BR-XL-2", "=SUM(A1) stays text"]));
    await dialog.waitFor({ state: "detached" });
  });
});
