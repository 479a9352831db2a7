import JSZip from "jszip";
import type { Frame, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addonFrame } from "./harness.js";
import { type CreatedRequirement, PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** Text a user may type that a careless page would run: markup with a handler, a javascript: link, a spreadsheet formula. */
const MARKUP_NAME = `<img src=x onerror=alert("rmcloud-name")>`;
const FORMULA_NAME = `=HYPERLINK("https://evil.example","Open")`;
const HOSTILE_DESCRIPTION = `<script>alert("rmcloud-script")</script> <a href="javascript:alert('rmcloud-link')">details</a> javascript:alert('rmcloud-bare') [docs](javascript:alert('rmcloud-md')) =1+1`;
const MARKUP_FOLDER = `<svg onload=alert("rmcloud-folder")>`;

describe("Names and descriptions that look like markup, links or formulas", () => {
  const screen = requirementsScreenForSuite();
  const dialogs: string[] = [];
  let markup: CreatedRequirement;
  let formula: CreatedRequirement;

  /** Nothing the texts hold became an element, a javascript: link or a script (the page's own inline scripts aside) in this frame. */
  async function expectInert(frame: Frame) {
    const made = await frame.evaluate(
      () =>
        document.querySelectorAll('img[src="x"], svg[onload], a[href^="javascript:" i]').length +
        [...document.scripts].filter((script) => script.textContent?.includes("alert(")).length,
    );
    expect(made).toBe(0);
    expect(dialogs).toEqual([]);
  }
  const watch = (page: Page) =>
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

  beforeAll(async () => {
    watch(screen.page);
    const folder = await screen.createFolder(MARKUP_FOLDER);
    markup = await screen.createRequirement(MARKUP_NAME, { folderId: folder.folder_id });
    formula = await screen.createRequirement(FORMULA_NAME, { level: 2, links: [markup.requirement_id] });
    await screen.api("PUT", `/api/requirement/${markup.requirement_id}`, { name: MARKUP_NAME, description: HOSTILE_DESCRIPTION });
  });

  it("shows them as text in the tree and the detail", async () => {
    await screen.open(`${PUMP}-requirements-${markup.requirement_id}`, { page: screen.page });
    await screen.treeItem(MARKUP_FOLDER).waitFor();
    await screen
      .detail(/rmcloud-name/)
      .getByText(HOSTILE_DESCRIPTION, { exact: false })
      .first()
      .waitFor();
    await screen
      .detail(/rmcloud-name/)
      .getByText(FORMULA_NAME, { exact: false })
      .first()
      .waitFor();
    await screen.treeItem(FORMULA_NAME).waitFor();
    await expectInert(screen.frame);
  });

  it("shows an imported rich description with its structure, and nothing of it runs", async () => {
    const rich = await screen.createRequirement("Imported from ReqIF");
    const description = `<p>Seals are <b>checked</b> daily<img src=x onerror=alert("rmcloud-rich")></p><script>alert("rmcloud-rich-script")</script><ul><li>at start</li></ul><p><a href="javascript:alert('rmcloud-rich-link')">log</a> <a href="https://example.com/seals">seals</a></p>`;
    await screen.api("PUT", `/api/requirement/${rich.requirement_id}`, { name: "Imported from ReqIF", description });
    await screen.open(`${PUMP}-requirements-${rich.requirement_id}`, { page: screen.page });
    const detail = screen.detail(/Imported from ReqIF/);
    await detail.locator("b", { hasText: "checked" }).waitFor();
    await detail.getByRole("listitem").filter({ hasText: "at start" }).waitFor();
    await expect(detail.getByRole("link", { name: "seals" }).getAttribute("target")).resolves.toBe("_blank");
    await expect(detail.getByText("log").evaluate((link) => link.getAttribute("href"))).resolves.toBeNull();
    await expectInert(screen.frame);
  });

  it("shows them as text in the traceability matrix", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("tab", { name: "Traceability Matrix" }).click();
    const matrix = screen.frame.getByRole("table", { name: "Traceability matrix" });
    await matrix.getByText(MARKUP_NAME).first().waitFor({ timeout: 60_000 });
    await matrix.getByText(FORMULA_NAME).first().waitFor();
    await expectInert(screen.frame);
  });

  it("shows them as text in a baseline comparison", async () => {
    const before = await screen.api<{ baseline_id: number }>("POST", "/api/baseline", {
      name: MARKUP_NAME,
      project: PUMP,
      select_all_requirements: true,
    });
    await screen.api("PUT", `/api/requirement/${formula.requirement_id}`, { name: FORMULA_NAME, description: HOSTILE_DESCRIPTION });
    const after = await screen.api<{ baseline_id: number }>("POST", "/api/baseline", {
      name: FORMULA_NAME,
      project: PUMP,
      select_all_requirements: true,
    });
    expect(after.baseline_id).toBeGreaterThan(before.baseline_id);
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("tab", { name: "Baselines" }).click();
    await screen.frame.getByRole("button", { name: "Baseline Comparison" }).click();
    for (const [label, name] of [
      ["Baseline 1", "rmcloud-name"],
      ["Baseline 2", "evil.example"],
    ] as const) {
      await screen.frame.getByLabel(label).click();
      await screen.frame
        .getByRole("option", { name: new RegExp(name) })
        .first()
        .click();
    }
    await screen.frame.getByRole("button", { name: "Compare" }).click();
    const changed = screen.frame.locator("section[data-status]").filter({ hasText: FORMULA_NAME });
    await changed.getByText(HOSTILE_DESCRIPTION, { exact: false }).first().waitFor();
    await expectInert(screen.frame);
  });

  it("shows them as text in the issue panel", async () => {
    const issue = screen.harness.sites.get("default")?.content.issues.find((candidate) => candidate.key === "PUMP-1");
    if (!issue) throw new Error("The emulator has no PUMP-1");
    await screen.api("PUT", `/api/issue/${issue.id}`, { requirements: [markup.requirement_id, formula.requirement_id] });
    const page = await screen.harness.newPage();
    watch(page);
    await page.goto(`${screen.harness.emulatorUrl}/browse/PUMP-1`);
    const panel = await addonFrame(page, screen.harness.addonUrl, "issue-view-requirements-right-panel");
    await panel.getByRole("link", { name: MARKUP_NAME }).waitFor({ timeout: 60_000 });
    await panel.getByRole("link", { name: FORMULA_NAME }).waitFor();
    await expectInert(panel);
    await page.close();
  });

  it("shows them as text in both Confluence macros", async () => {
    const pages = screen.harness.sites.get("default")?.content.pages ?? [];
    const checklist = pages.find((candidate) => candidate.title === "Release 2025.1 checklist");
    const home = pages.find((candidate) => candidate.title === "Engineering home");
    if (!checklist || !home) throw new Error("The emulator's wiki pages are missing");
    await screen.api("PUT", `/api/confluence/content/${checklist.id}`, { requirements: [markup.requirement_id] });
    const page = await screen.harness.newPage();
    watch(page);
    await page.goto(`${screen.harness.emulatorUrl}/wiki/spaces/${checklist.spaceKey}/pages/${checklist.id}`);
    const inserted = await addonFrame(page, screen.harness.addonUrl, "insert-requirements-macro?");
    await inserted.getByText(MARKUP_NAME).first().waitFor({ timeout: 60_000 });
    await expectInert(inserted);

    await page.goto(`${screen.harness.emulatorUrl}/wiki/spaces/${home.spaceKey}/pages/${home.id}`);
    await page.getByRole("button", { name: "Insert rmCloud linked requirements" }).click();
    const editor = await addonFrame(page, screen.harness.addonUrl, "linked-requirements-macro-editor");
    await editor.getByLabel("Link requirements to content").click({ timeout: 60_000 });
    await editor.getByRole("option", { name: /rmcloud-name/ }).click();
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await reloaded;
    const linked = await addonFrame(page, screen.harness.addonUrl, "linked-requirements-macro?");
    await linked.getByRole("cell", { name: MARKUP_NAME }).waitFor({ timeout: 60_000 });
    await linked.getByText(HOSTILE_DESCRIPTION, { exact: false }).first().waitFor();
    await expectInert(linked);
    await page.close();
  });

  it("writes them as text into the Word export and the CSV export", async () => {
    const started = await screen.api<{ job_id: string; presigned_url: string }>("POST", "/api/requirement/matrix/export", {
      atlassian_project_id: PUMP,
      type: "docx",
      selected_issue_types: [],
    });
    await expect
      .poll(async () => (await screen.api<{ status: string }>("GET", `/api/job/status/${started.job_id}`)).status, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe("finished");
    const docx = await JSZip.loadAsync(await (await fetch(started.presigned_url)).arrayBuffer());
    const document = (await docx.file("word/document.xml")?.async("string")) ?? "";
    expect(document).toContain("&lt;img src=x onerror=alert(&quot;rmcloud-name&quot;)&gt;");
    expect(document).toContain("=HYPERLINK(&quot;https://evil.example&quot;,&quot;Open&quot;)");
    expect(document).not.toMatch(/<w:instrText|<w:fldSimple/);

    const csv = await fetch(`${screen.harness.addonUrl}/api/requirement/export?atlassian_project_id=${PUMP}`, {
      headers: { authorization: `Bearer ${screen.token}` },
    }).then((response) => response.text());
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"",""Open"")"`);
    expect(csv).toContain(`"<img src=x onerror=alert(""rmcloud-name"")>"`);
  });
});
