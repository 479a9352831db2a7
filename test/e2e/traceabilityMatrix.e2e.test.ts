import fs from "node:fs";
import path from "node:path";
import JSZip from "jszip";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUMP, seedPumpDemo } from "./demoProject.js";
import { addonFrame, type Harness, startHarness } from "./harness.js";

const ROVER = 10001;
const MANY = 20_000;

describe("The traceability matrix of the demo project in the emulated Jira", () => {
  let harness: Harness;
  let page: Page;
  let frame: Frame;
  let tenantId: string;

  const openMatrix = async (projectId = PUMP, key = "PUMP") => {
    await page.goto("about:blank");
    await page.goto(
      `${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=${key}&project.id=${projectId}#!${projectId}-traceability`,
    );
    frame = await addonFrame(page, harness.addonUrl);
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await frame.getByRole("table", { name: "Traceability matrix" }).waitFor({ timeout: 90_000 });
  };
  const row = (name: string) => frame.getByRole("row").filter({ hasText: name });
  const columnHeader = (name: string) => frame.getByRole("columnheader", { name, exact: true });

  beforeAll(async () => {
    harness = await startHarness();
    ({ tenantId } = await seedPumpDemo(harness));
    page = await harness.newPage();
    await openMatrix();
    // A cold start (Vite optimising its dependencies on a busy machine) can outlast the default hook time.
  }, 240_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("shows a row per requirement with its ID, name and type, and its linked issues under their issue type", async () => {
    for (const heading of ["ID", "Name", "Type", "Epic", "Story", "Task", "Bug"]) await columnHeader(heading).waitFor();
    await row("Prevent dose errors at the bedside")
      .getByRole("cell", { name: /^BR-\d+$/ })
      .waitFor();
    await row("Event log writer with power-fail flush").getByRole("cell", { name: "Software", exact: true }).waitFor();
    const issueLink = frame.getByRole("link", { name: /^PUMP-\d+$/ }).first();
    await issueLink.waitFor();
    expect(await issueLink.getAttribute("target")).toBe("_blank");
    expect(await issueLink.getAttribute("href")).toMatch(/\/browse\/PUMP-\d+$/);
    expect(await frame.getByRole("row").count()).toBe(1 + 11);
  });

  it("filters requirements by label and name, and says so when nothing matches", async () => {
    const filter = frame.getByRole("textbox", { name: "Filter requirements" });
    await filter.fill("confirmation");
    await row("Confirmation screen shows drug, rate and volume").waitFor();
    await row("Confirmation screen renders the programmed dose").waitFor();
    await expect.poll(() => frame.getByRole("row").count()).toBe(1 + 2);

    await filter.fill("no such requirement");
    await frame.getByText("No requirements found for your search query").waitFor();
    await filter.fill("");
    await expect.poll(() => frame.getByRole("row").count()).toBe(1 + 11);
  });

  it("hides a column, which stays hidden after a reload, then exports the shown columns as a Word document", async () => {
    await frame.getByRole("button", { name: "Remove Bug" }).click();
    await expect.poll(() => columnHeader("Bug").count()).toBe(0);

    await openMatrix();
    await columnHeader("Story").waitFor();
    expect(await columnHeader("Bug").count()).toBe(0);

    const download = page.waitForEvent("download", { timeout: 60_000 });
    await frame.getByRole("button", { name: "Export" }).click();
    await frame.getByRole("menuitem", { name: "Word (.docx)" }).click();
    await frame.getByText("Generating your export...").waitFor();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^traceability-matrix-10000-\d{4}-\d{2}-\d{2}\.docx$/);
    const saved = path.join(harness.dataDir, "matrix.docx");
    await file.saveAs(saved);

    const zip = await JSZip.loadAsync(fs.readFileSync(saved));
    const xml = (await zip.file("word/document.xml")?.async("string")) ?? "";
    for (const name of ["Prevent dose errors at the bedside", "Drug library limit check", "Event log writer with power-fail flush"])
      expect(xml).toContain(name);
    expect(xml).toContain(">Story<");
    expect(xml).not.toContain(">Bug<");
    expect(xml).toMatch(/PUMP-\d+/);
    await expect.poll(() => frame.getByText("Generating your export...").count()).toBe(0);
  });

  it("scrolls through 20,000 requirements asking only for the windows in view, with only those rows in the page", async () => {
    const { db } = harness.addonDeps;
    const [type] = await db("requirement_types").where({ tenant_id: tenantId, level: 3 }).select("requirement_type_id");
    for (let start = 0; start < MANY; start += 1000) {
      await db("requirements").insert(
        Array.from({ length: 1000 }, (_, i) => ({
          tenant_id: tenantId,
          project_id: ROVER,
          requirement_type_id: type.requirement_type_id,
          name: `Rover requirement ${start + i + 1}`,
          created_by: "e2e",
        })),
      );
    }
    await db("requirements")
      .where({ tenant_id: tenantId, project_id: ROVER, name: "Rover requirement 12345" })
      .update({ name: "Wheel torque limit" });
    // As PostgreSQL's autovacuum would after such a load: without statistics the coverage statement's
    // planner picks nested loops over 20,000 rows, and PGlite's one connection then holds every other read.
    await db.raw("ANALYZE requirements");
    const answeredRows: number[] = [];
    const askedOffsets: string[] = [];
    page.on("response", async (response) => {
      if (!response.url().includes("/api/requirement/matrix?")) return;
      askedOffsets.push(new URL(response.url()).searchParams.get("offset") ?? "");
      const body = (await response.json().catch(() => undefined)) as { rows: unknown[] } | undefined;
      if (body) answeredRows.push(body.rows.length);
    });
    await openMatrix(ROVER, "ROVER");
    await row("Rover requirement 1").first().waitFor();
    expect(await frame.getByRole("table", { name: "Traceability matrix" }).getAttribute("aria-rowcount")).toBe(String(MANY + 1));
    expect(await frame.getByRole("row").count()).toBeLessThan(100);

    await frame.locator("tbody").evaluate((body) => {
      body.closest("table")?.parentElement?.scrollTo({ top: body.scrollHeight * 2 });
    });
    await row(`Rover requirement ${MANY}`).waitFor();
    expect(await frame.getByRole("row").count()).toBeLessThan(100);
    // The first window and the last one (or two): never the project in one answer.
    expect(Math.max(...answeredRows)).toBeLessThanOrEqual(1000);
    expect(answeredRows.reduce((sum, rows) => sum + rows, 0)).toBeLessThan(1000);
    // The screen's first window is the grid's: asked for once, not again as the grid mounts.
    expect(askedOffsets.filter((offset) => offset === "0")).toHaveLength(1);

    // The filter is applied by the server: one hit out of 20,000.
    await frame.getByRole("textbox", { name: "Filter requirements" }).fill("TORQUE wheel");
    await expect.poll(() => frame.getByRole("table", { name: "Traceability matrix" }).getAttribute("aria-rowcount")).toBe("2");
    await row("Wheel torque limit").waitFor();
  });
});
