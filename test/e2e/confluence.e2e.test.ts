import type { Frame, Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { WIKI_DATA_PROBLEM } from "../../common/constants.js";
import { findUser } from "../../emulator/rest/shapes.js";
import { addonFrame } from "./harness.js";
import { type CreatedRequirement, PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

describe("Confluence: the macros and their editors, linked content in the requirement detail", () => {
  const screen = requirementsScreenForSuite();
  let braking: CreatedRequirement;

  const wikiPage = (title: string) => {
    const page = screen.harness.sites.get("default")?.content.pages.find((candidate) => candidate.title === title);
    if (!page) throw new Error(`No page ${title}`);
    return page;
  };
  const openWikiPage = async (page: Page, title: string) => {
    const { id, spaceKey } = wikiPage(title);
    await page.goto(`${screen.harness.emulatorUrl}/wiki/spaces/${spaceKey}/pages/${id}`);
  };
  /** The macro editor's iframe; its host dialog has Insert/Save and Close. */
  const editorFrame = (page: Page) => addonFrame(page, screen.harness.addonUrl, "linked-requirements-macro-editor");
  const choose = async (frame: Frame, name: string, label = "Link requirements to content") => {
    await frame.getByLabel(label).click();
    await frame.getByRole("option", { name: new RegExp(`: ${name}$`) }).click();
  };
  const macroTable = async (page: Page) => {
    const frame = await addonFrame(page, screen.harness.addonUrl, "linked-requirements-macro?");
    await frame.getByRole("table").waitFor({ timeout: 60_000 });
    return frame;
  };

  beforeAll(async () => {
    braking = await screen.createRequirement("Braking distance");
    await screen.createRequirement("Occlusion alarm");
    await screen.createRequirement("Battery life");
  });

  afterEach(async () => {
    await fetch(`${screen.harness.emulatorUrl}/_emulator/faults`, { method: "DELETE" });
  });

  it("inserts the Linked requirements macro into a page, chooses two requirements in its editor and sees them in its table", async () => {
    const page = await screen.harness.newPage();
    await openWikiPage(page, "Engineering home");
    await page.getByRole("button", { name: "Insert rmCloud linked requirements" }).click();
    await page.getByRole("dialog").getByText("Link requirements to content").first().waitFor();
    const editor = await editorFrame(page);
    await editor.getByLabel("Link requirements to content").waitFor({ timeout: 60_000 });
    await choose(editor, "Braking distance");
    await choose(editor, "Occlusion alarm");
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await reloaded;
    const table = await macroTable(page);
    await table.getByRole("table", { name: "Chosen requirements" }).getByRole("cell", { name: "Braking distance" }).waitFor();
    await table.getByRole("cell", { name: "Occlusion alarm" }).waitFor();
    await expect(table.getByRole("cell", { name: "Battery life" }).count()).resolves.toBe(0);
    const link = table.getByRole("link", { name: "Braking distance" });
    await expect(link.getAttribute("href")).resolves.toContain(`ac.requirementId=${braking.requirement_id}`);
    await expect(link.getAttribute("target")).resolves.toBe("_blank");
    await page.close();
  });

  it("edits the macro: the editor shows the current choice, and the table the changed one", async () => {
    const page = await screen.harness.newPage();
    await openWikiPage(page, "Engineering home");
    await macroTable(page);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const editor = await editorFrame(page);
    const current = editor.getByText(/: Braking distance$/);
    await current.waitFor({ timeout: 60_000 });
    await editor.getByRole("button", { name: /Remove .*Braking distance/ }).click();
    await choose(editor, "Battery life");
    // Confluence shows the page again once the macro is saved.
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await reloaded;
    const table = await macroTable(page);
    await table.getByRole("cell", { name: "Battery life" }).waitFor();
    await table.getByRole("cell", { name: "Occlusion alarm" }).waitFor();
    await expect(table.getByRole("cell", { name: "Braking distance" }).count()).resolves.toBe(0);
    await page.close();
  });

  it("links requirements to a page in the Insert requirements macro's editor; the macro lists them", async () => {
    const checklist = wikiPage("Release 2025.1 checklist");
    const page = await screen.harness.newPage();
    await openWikiPage(page, checklist.title);
    const view = await addonFrame(page, screen.harness.addonUrl, "insert-requirements-macro?");
    await view.getByText("No requirements are linked to this page.").waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const editor = await addonFrame(page, screen.harness.addonUrl, "insert-requirements-macro-editor");
    await editor.getByLabel("Link requirements to this page").waitFor({ timeout: 60_000 });
    await choose(editor, "Occlusion alarm", "Link requirements to this page");
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await reloaded;

    const table = await addonFrame(page, screen.harness.addonUrl, "insert-requirements-macro?");
    await table
      .getByRole("table", { name: "Requirements linked to this page" })
      .getByRole("cell", { name: "Occlusion alarm" })
      .waitFor({ timeout: 60_000 });
    const linked = await screen.api<{ requirements: { name: string }[] }>(
      "GET",
      `/api/requirement/lite?atlassian_content_id=${checklist.id}`,
    );
    expect(linked.requirements.map((r) => r.name)).toEqual(["Occlusion alarm"]);
    await page.close();
  });

  it("links a page from the requirement's form; the detail shows its title, last update and contributors", async () => {
    const glossary = wikiPage("Glossary");
    await screen.open(`${PUMP}-requirements-${braking.requirement_id}`, { page: screen.page });
    await screen
      .detail(/Braking distance/)
      .getByRole("button", { name: "Edit" })
      .click();
    const dialog = screen.dialog();
    await dialog.getByLabel("Linked Confluence content").fill("Gloss");
    await screen.frame.getByRole("option", { name: "Glossary (ENG)" }).click();
    await dialog.getByRole("button", { name: "OK" }).click();
    await screen.flag("Requirement edited successfully").waitFor();

    const section = screen.frame.getByRole("region", { name: "Linked Confluence Content" });
    const title = section.getByRole("link", { name: "Glossary" });
    await title.waitFor();
    await expect(title.getAttribute("target")).resolves.toBe("_blank");
    for (const version of glossary.versions) {
      const name = findUser(version.byAccountId)?.displayName ?? "";
      await section.getByText(name, { exact: false }).first().waitFor();
    }
    await expect(section.getByText(/\d{4}, \d{1,2}:\d{2}:\d{2} (am|pm)/).count()).resolves.toBe(1);
  });

  it("shows the wiki data message, and no spinner, when Confluence fails", async () => {
    await fetch(`${screen.harness.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pathPattern: "/rest/api/content/search", status: 500 }),
    });
    await screen.open(`${PUMP}-requirements-${braking.requirement_id}`, { page: screen.page });
    const section = screen.frame.getByRole("region", { name: "Linked Confluence Content" });
    await section.getByText(WIKI_DATA_PROBLEM).waitFor();
    await expect(section.getByRole("img", { name: /Loading/ }).count()).resolves.toBe(0);
  });
});
