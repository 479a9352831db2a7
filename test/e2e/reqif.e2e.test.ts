import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { reqifFixture } from "../helpers/reqif.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

describe("Import and export of requirements as ReqIF in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();

  it("imports a ReqIF file through the dialog, after a preview of what it holds, and its hierarchy shows in the tree", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "eclipse-rmf.reqif", mimeType: "application/xml", buffer: reqifFixture("eclipse-rmf-tc1000.reqif") });
    await dialog.getByText("1 objects and 0 relations in ID_TC1000_Specification (1)").waitFor({ timeout: 30_000 });
    const types = dialog.getByRole("table", { name: "Object types" });
    await types.getByRole("row", { name: /TC1000 SpecObjectType/ }).waitFor();
    await types.getByRole("textbox", { name: "Prefix for TC1000 SpecObjectType" }).fill("RMF");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();

    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    await dialog.getByText("1 requirements created, 0 updated, 1 folders created, 0 links created.").waitFor();
    await dialog.getByRole("button", { name: "Done", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    // The specification became a folder: opened by its chevron, it holds the object's requirement.
    await screen.treeItem("ID_TC1000_Specification").locator("span").first().click();
    await expect.poll(() => screen.treeItem("ID_TC1000_Specification").getAttribute("aria-expanded")).toBe("true");
    await screen.treeItem(/ID_TC1000_SpecObject/).waitFor();
    const savedTypes = await screen.api<{ requirement_types: { name: string; prefix: string }[] }>("GET", "/api/requirement/type");
    expect(savedTypes.requirement_types).toContainEqual(expect.objectContaining({ name: "TC1000 SpecObjectType", prefix: "RMF" }));
  });

  it("exports a folder with its subtree as ReqIF from the Export dialog", async () => {
    const folder = await screen.createFolder("Exported as ReqIF");
    await screen.open(`${PUMP}-folder-${folder.folder_id}`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Export requirements" }).click();
    const dialog = screen.dialog();
    await screen.chooseOption("Format", "ReqIF");
    const exporting = screen.dialog();
    expect(await exporting.getByRole("radio", { name: "A folder and everything in it" }).isChecked()).toBe(true);
    const [download] = await Promise.all([
      screen.page.waitForEvent("download", { timeout: 60_000 }),
      exporting.getByRole("button", { name: "Export", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`rmcloud-${PUMP}-folder-${folder.folder_id}-${new Date().toISOString().slice(0, 10)}.reqif`);
    const xml = await readFile((await download.path()) as string, "utf8");
    expect(xml).toContain('<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd"');
    expect(xml).toContain('THE-VALUE="Exported as ReqIF"');
    await dialog.waitFor({ state: "detached" });
  });
});
