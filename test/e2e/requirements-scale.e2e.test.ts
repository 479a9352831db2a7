import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vacuumAfterBulkWrite } from "../../server/db/knex.js";
import { type Harness, startHarness } from "./harness.js";
import { PUMP, RequirementsScreen } from "./requirementsFixture.js";

const COUNT = 5000;
const BATCH = 1000;
const ROW_SCROLL = 3000;

describe("A folder of 5,000 requirements", () => {
  let harness: Harness;
  let screen: RequirementsScreen;
  let folderId: number;

  beforeAll(async () => {
    harness = await startHarness();
    screen = new RequirementsScreen(harness);
    await screen.open(`${PUMP}-requirements`);
    const type = await screen.typeOfLevel(3);
    folderId = (await screen.createFolder("Load cases")).folder_id;
    // Through the API this many would take minutes: the rows go straight into the add-on's
    // database, the way the benchmark seeds them, under the tenant the folder belongs to.
    const { db } = harness.addonDeps;
    const { tenant_id: tenantId } = await db("folders").where({ folder_id: folderId }).first("tenant_id");
    for (let start = 1; start <= COUNT; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, COUNT - start + 1) }, (_, offset) => ({
        tenant_id: tenantId,
        project_id: PUMP,
        parent_folder_id: folderId,
        requirement_type_id: type.requirement_type_id,
        name: `Load case ${String(start + offset).padStart(4, "0")}`,
        description: "",
        created_by: "e2e",
      }));
      await db("requirements").insert(rows);
    }
    // Written past the import, so refreshed as the import refreshes what it wrote (PGlite has no autovacuum).
    await vacuumAfterBulkWrite(db);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("opens lazily, scrolls to its last requirement a window at a time and keeps only the rows on screen in the page", async () => {
    const answeredItems: number[] = [];
    screen.page.on("response", async (response) => {
      if (!response.url().includes(`/api/item/${folderId}/descendant`)) return;
      // A response still arriving as the test ends has no body to read any more.
      const body = (await response.json().catch(() => undefined)) as { items: unknown[] } | undefined;
      if (body) answeredItems.push(body.items.length);
    });
    await screen.open(`${PUMP}-folder-${folderId}`, { page: screen.page });
    const folderRow = screen.treeItem("Load cases");
    await folderRow.click();
    await screen.detail("Load cases").waitFor();
    await screen.frame.getByRole("tree").focus();
    await screen.page.keyboard.press("ArrowRight");
    await expect.poll(() => folderRow.getAttribute("aria-expanded")).toBe("true");
    await screen.treeItem(/Load case 0001$/).waitFor({ timeout: 60_000 });

    const tree = screen.frame.getByRole("tree");
    await tree.evaluate((element) => {
      const scroller = element.parentElement;
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
    });
    const last = screen.treeItem(/Load case 5000$/);
    // Its window is asked for once its placeholders are in view.
    await last.waitFor({ timeout: 60_000 });
    await expect(last.isVisible()).resolves.toBe(true);
    await expect(last.getAttribute("aria-posinset")).resolves.toBe(String(COUNT));
    await expect(last.getAttribute("aria-setsize")).resolves.toBe(String(COUNT));

    // The first window and the last: the 4,000 requirements between were never asked for.
    expect(Math.max(...answeredItems)).toBeLessThanOrEqual(500);
    expect(answeredItems.reduce((sum, items) => sum + items, 0)).toBeLessThanOrEqual(1000);

    const rendered = await screen.frame.getByRole("treeitem").count();
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(200);

    // Scrolling with the wheel (not the keyboard) also brings rows in and out.
    await tree.hover();
    await screen.page.mouse.wheel(0, -ROW_SCROLL);
    await expect.poll(() => last.count()).toBe(0);
    expect(await screen.frame.getByRole("treeitem").count()).toBeLessThan(200);
  });

  it("opens a deep link to its 4,800th requirement at that requirement's window, selected and in view", async () => {
    const { db } = harness.addonDeps;
    const target = Number(
      (await db("requirements").where({ parent_folder_id: folderId, name: "Load case 4800" }).first("requirement_id")).requirement_id,
    );
    const page = await harness.newPage();
    const asked: { offset: number; limit: number }[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname !== `/api/item/${folderId}/descendant`) return;
      asked.push({ offset: Number(url.searchParams.get("offset")), limit: Number(url.searchParams.get("limit")) });
    });
    await screen.open(`${PUMP}-requirements-${target}`, { page });
    await screen.detail(/Load case 4800/).waitFor({ timeout: 60_000 });

    const row = screen.treeItem(/Load case 4800$/);
    await row.waitFor({ timeout: 60_000 });
    await expect.poll(() => row.getAttribute("aria-selected")).toBe("true");
    await expect(row.getAttribute("aria-posinset")).resolves.toBe("4800");
    // Inside the tree's scrolled pane, not merely in the page.
    const inPane = () =>
      row.evaluate((element) => {
        const pane = element.closest('[role="tree"]')?.parentElement?.getBoundingClientRect();
        const own = element.getBoundingClientRect();
        return pane !== undefined && own.top >= pane.top && own.bottom <= pane.bottom;
      });
    await expect.poll(inPane).toBe(true);
    // Under its folder, opened for it (the folder's own row has scrolled out of the page).
    await expect(row.getAttribute("aria-level")).resolves.toBe("2");

    // The folder's first window (it opened) and the one holding requirement 4,800, each at most 500:
    // the 4,000 requirements between were never asked for.
    expect(asked.every((window) => window.limit <= 500)).toBe(true);
    expect([...new Set(asked.map((window) => window.offset))].sort((a, b) => a - b)).toEqual([0, 4500]);
  });
});
