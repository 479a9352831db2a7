import { readFile } from "node:fs/promises";
import type { Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { FOLDER_PAGE_MAX } from "../../common/schemas/folder.js";
import { addonFrame } from "./harness.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** Jira's own "all fields" export, as the shared fixtures hold it. */
const JIRA_EXPORT = new URL("../fixtures/csv/jira-export-valid.csv", import.meta.url);
const ROVER = 10001;
const PAY = 10002;

/** The flows a new user walked through (issue 41), each as that user takes it. */
describe("a new user's first steps on the requirements screen", () => {
  const screen = requirementsScreenForSuite();

  const requirementsOf = async (projectId: number) =>
    (
      await screen.api<{ requirements: { requirement_id: number; name: string; parent_folder_id: number | null }[] }>(
        "GET",
        `/api/requirement?atlassian_project_id=${projectId}`,
      )
    ).requirements;

  /** The Import dialog of a project's screen with a file chosen and the mapping shown. */
  const importDialogWith = async (projectId: number, file: { name: string; buffer: Buffer }, state = `${projectId}-requirements`) => {
    await screen.open(state, { page: screen.page });
    await screen.frame.getByRole("button", { name: "Import requirements" }).click();
    const dialog = screen.dialog();
    await dialog.locator('input[type="file"]').setInputFiles({ ...file, mimeType: "text/csv" });
    await dialog.getByRole("table", { name: "Mapped columns" }).waitFor();
    return dialog;
  };

  /** The body of every POST /api/import-issues the page sends while `run` runs. */
  const importRequestsDuring = async (run: () => Promise<void>) => {
    const bodies: { leave_out_unknown_names?: boolean }[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/import-issues") bodies.push(request.postDataJSON());
    };
    screen.page.on("request", onRequest);
    try {
      await run();
    } finally {
      screen.page.off("request", onRequest);
    }
    return bodies;
  };

  it("imports Jira's own export into every seeded project, told which components it lacks and leaving them out as chosen, and into Global Requirements", async () => {
    const buffer = await readFile(JIRA_EXPORT);
    const expected: [number, RegExp][] = [
      [PUMP, /^4 component values are not components of PUMP: Dosing, Firmware, UI, Logging\.$/],
      [ROVER, /^5 component values are not components of ROVER: Dosing, Firmware, Alarms, UI, Logging\.$/],
      [PAY, /^5 component values are not components of PAY/],
    ];
    for (const [projectId, warning] of expected) {
      const dialog = await importDialogWith(projectId, { name: "jira.csv", buffer });
      await dialog.getByText(warning).waitFor();
      await dialog.getByRole("checkbox", { name: "Leave out the Component/s columns" }).waitFor();
      await expect(dialog.getByText(/status values? (is|are) not/).count()).resolves.toBe(0);
      await dialog.getByRole("checkbox", { name: "Leave these values out of their rows and import the rest" }).check();
      await screen.chooseOption("Requirement type", "Stakeholder");
      const sent = await importRequestsDuring(async () => {
        await dialog.getByRole("button", { name: "Import", exact: true }).click();
        await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
      });
      expect(sent.map((body) => body.leave_out_unknown_names)).toEqual([true]);
      await dialog.waitFor({ state: "detached" });
      expect((await requirementsOf(projectId)).map((requirement) => requirement.name)).toContain("Battery status visible on every screen");
    }
    const pump = await requirementsOf(PUMP);
    const occlusion = pump.find((requirement) => requirement.name.startsWith("Occlusion alarm"));
    const detail = await screen.api<{ components: unknown[]; status: unknown }>("GET", `/api/requirement/${occlusion?.requirement_id}`);
    expect(detail.components).toHaveLength(1);
    expect(detail.status).not.toBeNull();

    const dialog = await importDialogWith(0, { name: "jira.csv", buffer });
    await dialog
      .getByText("Global Requirements have no status or components: the file's Status and Component/s columns are left out.")
      .waitFor();
    await screen.chooseOption("Requirement type", "Business");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    expect((await requirementsOf(0)).filter((requirement) => requirement.name === "Battery status visible on every screen")).toHaveLength(
      1,
    );
  });

  it("keeps unknown component values unless the person chose to leave them out: the rows naming them are refused", async () => {
    const dialog = await importDialogWith(ROVER, {
      name: "warp.csv",
      buffer: Buffer.from("Name,Component/s\nNot left out silently,Warp drive\n"),
    });
    await dialog.getByText(/^1 component value is not a component of ROVER: Warp drive\.$/).waitFor();
    await screen.chooseOption("Requirement type", "Stakeholder");
    const sent = await importRequestsDuring(async () => {
      await dialog.getByRole("button", { name: "Import", exact: true }).click();
      await dialog
        .getByRole("list", { name: "Row errors" })
        .getByText(/^Row 2: .*Warp drive/)
        .waitFor({ timeout: 60_000 });
    });
    expect(sent.map((body) => body.leave_out_unknown_names)).toEqual([false]);
    expect((await requirementsOf(ROVER)).map((requirement) => requirement.name)).not.toContain("Not left out silently");
  });

  it("offers every row error of a large refused file as a download, beyond the 50 it lists", async () => {
    const csv = ["Name,ID", ...Array.from({ length: 120 }, (_, index) => `,MISSING-${index}`)].join("\n");
    const dialog = await importDialogWith(PUMP, { name: "many-errors.csv", buffer: Buffer.from(csv) });
    await screen.chooseOption("Requirement type", "Stakeholder");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await dialog.getByText("and 70 more").waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([
      screen.page.waitForEvent("download", { timeout: 60_000 }),
      dialog.getByRole("button", { name: "Download all 120 row errors (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^rmcloud-import-errors-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path()) as string, "utf8"))
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(121);
    expect(lines[0]).toBe("Row,Reason");
    expect(lines.at(-1)).toBe("121,Name is required");
  });

  it("leaves a Component/s column out when asked, and still refuses bad data, every problem of a row listed", async () => {
    const csv = "Name,ID,Component/s\nFirst,DUP-1,Warp drive\n,DUP-1,Alarms\n";
    const dialog = await importDialogWith(PUMP, { name: "bad.csv", buffer: Buffer.from(csv) });
    await dialog.getByText(/^1 component value is not a component of PUMP: Warp drive\.$/).waitFor();
    await dialog.getByRole("checkbox", { name: "Leave out the Component/s columns" }).check();
    await screen.chooseOption("Requirement type", "Stakeholder");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    const errors = dialog.getByRole("list", { name: "Row errors" });
    await errors.getByText("Row 3: Name is required").waitFor({ timeout: 60_000 });
    await errors.getByText('Row 3: ID "DUP-1" is already used in row 2').waitFor();
    expect((await requirementsOf(PUMP)).map((requirement) => requirement.name)).not.toContain("First");
  });

  it("imports into the folder open on the screen", async () => {
    const folder = await screen.createFolder("Open for import");
    const dialog = await importDialogWith(
      PUMP,
      { name: "one.csv", buffer: Buffer.from("Name\nGoes into the open folder\n") },
      `${PUMP}-folder-${folder.folder_id}`,
    );
    const importInto = dialog.getByRole("radiogroup", { name: "Import into" });
    await expect.poll(() => importInto.getByRole("radio", { name: "Open for import" }).isChecked()).toBe(true);
    await screen.chooseOption("Requirement type", "Stakeholder");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    const imported = (await requirementsOf(PUMP)).find((requirement) => requirement.name === "Goes into the open folder");
    expect(imported?.parent_folder_id).toBe(folder.folder_id);
  });

  it("shows a nested folder open on the screen as the import's target, its parents opened in the picker", async () => {
    const outer = await screen.createFolder("Outer for import");
    const inner = await screen.createFolder("Inner for import", { parentFolderId: outer.folder_id });
    const dialog = await importDialogWith(
      PUMP,
      { name: "one.csv", buffer: Buffer.from("Name\nGoes into the nested folder\n") },
      `${PUMP}-folder-${inner.folder_id}`,
    );
    const importInto = dialog.getByRole("radiogroup", { name: "Import into" });
    const innerOption = importInto.getByRole("radio", { name: "Inner for import" });
    await innerOption.waitFor();
    expect(await innerOption.isChecked()).toBe(true);
    await importInto.getByRole("button", { name: "Collapse Outer for import" }).waitFor();
    await screen.chooseOption("Requirement type", "Stakeholder");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await screen.flag("Requirements imported successfully").waitFor({ timeout: 60_000 });
    const imported = (await requirementsOf(PUMP)).find((requirement) => requirement.name === "Goes into the nested folder");
    expect(imported?.parent_folder_id).toBe(inner.folder_id);
  });

  it("offers the folders of a level beyond the first page of the picker on request", async () => {
    const parent = await screen.createFolder("Holds more than a page");
    const names = Array.from({ length: FOLDER_PAGE_MAX + 1 }, (_, index) => `Child ${String(index).padStart(4, "0")}`);
    for (let start = 0; start < names.length; start += 20) {
      await Promise.all(names.slice(start, start + 20).map((name) => screen.createFolder(name, { parentFolderId: parent.folder_id })));
    }
    const dialog = await importDialogWith(PUMP, { name: "one.csv", buffer: Buffer.from("Name\nGoes into the last folder\n") });
    const importInto = dialog.getByRole("radiogroup", { name: "Import into" });
    await importInto.getByRole("button", { name: "Expand Holds more than a page" }).click();
    await importInto.getByRole("radio", { name: "Child 0999" }).waitFor();
    expect(await importInto.getByRole("radio", { name: `Child ${FOLDER_PAGE_MAX}` }).count()).toBe(0);
    await importInto.getByRole("button", { name: "More folders" }).click();
    await importInto.getByRole("radio", { name: `Child ${FOLDER_PAGE_MAX}` }).check();
    await expect.poll(() => importInto.getByRole("button", { name: "More folders" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();
  }, 180_000);

  it("offers each requirement type by its name and prefix in the requirement form", async () => {
    await screen.open(`${PUMP}-requirements`, { page: screen.page });
    await screen.frame.getByRole("button", { name: "New requirement" }).click();
    await screen
      .dialog()
      .getByLabel(/^Requirement type/)
      .click();
    await screen.frame.getByRole("option").first().waitFor();
    const offered = await screen.frame.getByRole("option").allTextContents();
    expect(offered).toContain("Stakeholder (SR)");
    expect(offered).toContain("System (SYS)");
    await screen.page.keyboard.press("Escape");
  });

  it("keeps the keyboard on a folder that ArrowRight and ArrowLeft open and close, with the open requirement below it", async () => {
    const folder = await screen.createFolder("Aaa keyboard folder");
    for (const name of ["Inside one", "Inside two", "Inside three"]) await screen.createRequirement(name, { folderId: folder.folder_id });
    const below = await screen.createRequirement("Zzz open below the folder");
    await screen.open(`${PUMP}-requirements-${below.requirement_id}`, { page: screen.page });
    await screen.detail(/Zzz open below the folder/).waitFor();
    const tree = screen.frame.getByRole("tree", { name: "Requirements and folders" });
    const folderRow = screen.treeItem("Aaa keyboard folder");
    await folderRow.waitFor();
    await tree.focus();
    const active = async () => {
      const id = await tree.getAttribute("aria-activedescendant");
      return id ? screen.frame.locator(`[id="${id}"]`).textContent() : undefined;
    };
    await screen.page.keyboard.press("Home");
    while ((await active()) !== "Aaa keyboard folder") await screen.page.keyboard.press("ArrowDown");

    await screen.page.keyboard.press("ArrowRight");
    await expect.poll(() => folderRow.getAttribute("aria-expanded")).toBe("true");
    await screen.treeItem(/Inside three/).waitFor();
    await expect.poll(active).toBe("Aaa keyboard folder");
    await screen.page.keyboard.press("ArrowLeft");
    await expect.poll(() => folderRow.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(active).toBe("Aaa keyboard folder");
    await screen.page.keyboard.press("ArrowRight");
    await screen.treeItem(/Inside three/).waitFor();
    expect(await active()).toBe("Aaa keyboard folder");
    await screen.page.keyboard.press("ArrowDown");
    await expect.poll(active).toMatch(/: Inside one$/);

    // With the open requirement inside the folder, closing and opening the folder keeps the focus on it too.
    await screen.page.keyboard.press("Enter");
    await screen.detail(/Inside one/).waitFor();
    await screen.page.keyboard.press("ArrowLeft");
    await expect.poll(active).toBe("Aaa keyboard folder");
    await screen.page.keyboard.press("ArrowLeft");
    await expect.poll(() => folderRow.getAttribute("aria-expanded")).toBe("false");
    await screen.page.keyboard.press("ArrowRight");
    await screen.treeItem(/Inside one/).waitFor();
    await expect.poll(active).toBe("Aaa keyboard folder");
    expect(await screen.treeItem(/Inside one/).getAttribute("aria-selected")).toBe("true");
  });

  it("reveals a deep-linked requirement in the tree: its folders opened, its row selected and in view", async () => {
    const outer = await screen.createFolder("Deep outer");
    const inner = await screen.createFolder("Deep inner", { parentFolderId: outer.folder_id });
    for (let n = 0; n < 40; n += 1) await screen.createRequirement(`Filler ${String(n).padStart(2, "0")}`, { folderId: inner.folder_id });
    const target = await screen.createRequirement("Zz deep-linked requirement", { folderId: inner.folder_id });
    const revealed = async () => {
      const row = screen.treeItem(/Zz deep-linked requirement/);
      await row.waitFor({ timeout: 30_000 });
      await expect.poll(() => row.getAttribute("aria-selected")).toBe("true");
      // In view: inside the tree's scrolling pane, not only in the DOM.
      await expect
        .poll(() =>
          row.evaluate((element) => {
            const pane = element.closest('[role="tree"]')?.parentElement;
            const box = element.getBoundingClientRect();
            const view = pane?.getBoundingClientRect();
            return !!view && box.top >= view.top && box.bottom <= view.bottom;
          }),
        )
        .toBe(true);
    };

    await screen.open(`${PUMP}-requirements-${target.requirement_id}`, { page: screen.page });
    await revealed();

    // As the issue panel links it: ac.requirementId on the project page's URL.
    await screen.page.goto("about:blank");
    await screen.page.goto(
      `${screen.harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}&ac.projectId=${PUMP}&ac.requirementId=${target.requirement_id}`,
    );
    screen.frame = await addonFrame(screen.page, screen.harness.addonUrl);
    await screen.detail(/Zz deep-linked requirement/).waitFor({ timeout: 60_000 });
    await revealed();
  });

  it("asks nothing more about a requirement once it is deleted", async () => {
    const linked = await screen.createRequirement("Stays after the delete", { level: 1 });
    const doomed = await screen.createRequirement("Deleted from its detail", { level: 2, links: [linked.requirement_id] });
    await screen.open(`${PUMP}-requirements-${doomed.requirement_id}`, { page: screen.page });
    const detail = screen.detail(/Deleted from its detail/);
    await detail.getByRole("heading", { name: "Activity" }).waitFor();
    const asked: string[] = [];
    const failed: string[] = [];
    let deleting = false;
    const ownPath = new RegExp(`/api/requirement/${doomed.requirement_id}(/|\\?|$)`);
    const onRequest = (request: Request) => {
      if (deleting && ownPath.test(new URL(request.url()).pathname)) asked.push(request.url());
    };
    screen.page.on("request", onRequest);
    screen.page.on("response", (response) => {
      if (response.status() === 404 && response.url().includes("/api/")) failed.push(response.url());
    });

    await detail.getByRole("button", { name: "Delete", exact: true }).click();
    deleting = true;
    await screen.dialog().getByRole("button", { name: "Delete", exact: true }).click();
    await screen.flag("Requirement deleted successfully").waitFor();
    await detail.waitFor({ state: "detached" });
    // The linked requirement's detail is refreshed: once that has been asked for, the refresh is over.
    await screen.treeItem(/Stays after the delete/).click();
    await screen
      .detail(/Stays after the delete/)
      .getByRole("heading", { name: "Activity" })
      .waitFor();
    await screen.page.waitForTimeout(500);
    screen.page.off("request", onRequest);

    expect(asked).toEqual([]);
    expect(failed).toEqual([]);
  });

  it("truncates long names with an ellipsis, the whole name in the title, in the tree and the folder picker", async () => {
    const folderName = `Long folder ${"name ".repeat(18)}end`.slice(0, 100);
    const requirementName = `Long requirement ${"words ".repeat(40)}end`.slice(0, 255);
    const folder = await screen.createFolder(folderName);
    const requirement = await screen.createRequirement(requirementName, { folderId: folder.folder_id });
    await screen.open(`${PUMP}-requirements-${requirement.requirement_id}`, { page: screen.page });
    await screen.detail(/Long requirement/).waitFor();
    const shownWhole = (text: string | RegExp) =>
      screen.frame.getByTitle(text, { exact: true }).evaluate((element) => {
        const style = getComputedStyle(element);
        const row = element.closest('[role="treeitem"], [role="radiogroup"] > div');
        const left = element.getBoundingClientRect().left;
        return {
          ellipsis: style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth,
          insideRow: !!row && left >= row.getBoundingClientRect().left,
        };
      });
    await screen.treeItem(folderName).waitFor();
    expect(await shownWhole(folderName)).toEqual({ ellipsis: true, insideRow: true });
    expect(await shownWhole(`BR-${requirement.requirement_id}: ${requirementName}`)).toEqual({ ellipsis: true, insideRow: true });

    await screen
      .detail(/Long requirement/)
      .getByRole("button", { name: "Move" })
      .click();
    const picker = screen.dialog().getByRole("radiogroup");
    await picker.getByTitle(folderName).waitFor();
    const label = picker.getByTitle(folderName).locator("span");
    expect(
      await label.evaluate((element) => getComputedStyle(element).textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth),
    ).toBe(true);
    await screen.page.keyboard.press("Escape");
  });

  it("stacks the tree above the detail in a 700 px frame, with nothing wider than the frame", async () => {
    const requirement = await screen.createRequirement("Shown in a narrow frame");
    const saved = await screen.api<{ revision: number }>("GET", `/api/requirement/${requirement.requirement_id}`);
    await screen.api("PUT", `/api/requirement/${requirement.requirement_id}`, {
      name: "Shown in a narrow frame",
      description: "Edited so that the Activity table has changed fields to show.",
      revision: saved.revision,
    });
    await screen.page.setViewportSize({ width: 700, height: 900 });
    await screen.open(`${PUMP}-requirements-${requirement.requirement_id}`, { page: screen.page });
    const detail = screen.detail(/Shown in a narrow frame/);
    await detail.getByRole("columnheader", { name: "Changed fields" }).waitFor();
    await detail.getByRole("region", { name: "Activity" }).locator("tbody tr").nth(1).waitFor();

    const overflow = await screen.frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    const treeBox = await screen.frame.getByRole("tree", { name: "Requirements and folders" }).boundingBox();
    const detailBox = await detail.boundingBox();
    expect((treeBox?.y ?? 0) + (treeBox?.height ?? 0)).toBeLessThanOrEqual(detailBox?.y ?? 0);
    const fits = (element: Element) => element.getBoundingClientRect().right <= document.documentElement.clientWidth;
    for (const name of ["Edit", "Move", "Delete"]) {
      expect(await detail.getByRole("button", { name, exact: true }).evaluate(fits)).toBe(true);
    }
    expect(await detail.getByRole("columnheader", { name: "Changed fields" }).evaluate(fits)).toBe(true);
  });
});
