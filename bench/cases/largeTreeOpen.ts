import { performance } from "node:perf_hooks";
import { median, openProjectPage, PROJECTS, startLargeSite, usedHeapBytes } from "../largeSite.js";
import { round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

/**
 * Issue 37, in headless Chromium on the production build: the Requirements screen of a project
 * whose top level holds 100,000 requirements, and the opening of a folder of 5,000, against the
 * same steps on a project of 1,000 (a folder of 50) in the same run. Issue 37 asks < 700 ms to the
 * first row and < 300 ms to open the folder: the absolute medians are printed next to the ratios.
 */
const largeTreeOpen: BenchCase = {
  name: "large-tree-open",
  async run(context) {
    // The harness runs on the embedded database only: measured once, on the first run.
    if (context.db !== "pglite") return [];
    const { harness, bigFolders } = await startLargeSite({ flat: true });
    try {
      const firstRow = async (project: { id: number; key: string }) => {
        const started = performance.now();
        const { page, frame } = await openProjectPage(harness, project, "requirements");
        await (await frame()).getByRole("treeitem").first().waitFor({ timeout: 60_000 });
        const took = performance.now() - started;
        await page.context().close();
        return took;
      };
      const openFolder = (project: { id: number; key: string }, folderId: number) => async () => {
        const { page, frame } = await openProjectPage(harness, project, `folder-${folderId}`);
        const addon = await frame();
        const folderRow = addon.getByRole("treeitem", { name: "Big folder" });
        await folderRow.waitFor({ timeout: 60_000 });
        await folderRow.click();
        await addon.getByRole("tree").focus();
        const started = performance.now();
        await page.keyboard.press("ArrowRight");
        await addon
          .getByRole("treeitem", { name: /Large requirement/ })
          .first()
          .waitFor({ timeout: 60_000 });
        const took = performance.now() - started;
        await page.context().close();
        return took;
      };
      const heapAfterScroll = async () => {
        const { page, frame } = await openProjectPage(harness, PROJECTS.flat, "requirements");
        const addon = await frame();
        await addon.getByRole("treeitem").first().waitFor({ timeout: 60_000 });
        await addon.getByRole("tree").evaluate((tree) => tree.parentElement?.scrollTo({ top: tree.scrollHeight / 2 }));
        await addon
          .getByRole("treeitem", { name: /Large requirement 5\d{4}/ })
          .first()
          .waitFor({ timeout: 60_000 });
        const bytes = await usedHeapBytes(addon);
        await page.context().close();
        return bytes;
      };

      const flat = await median(() => firstRow(PROJECTS.flat));
      const small = await median(() => firstRow(PROJECTS.small));
      const bigFolder = await median(openFolder(PROJECTS.large, bigFolders.large));
      const smallFolder = await median(openFolder(PROJECTS.small, bigFolders.small));
      const heap = await heapAfterScroll();
      process.stdout.write(
        `  first row: ${round(flat)} ms (100,000 at the top level) vs ${round(small)} ms (1,000); folder of 5,000 opens in ${round(bigFolder)} ms vs ${round(smallFolder)} ms (50); heap ${round(heap / 1e6)} MB\n`,
      );
      const result = (name: string, ours: number, baseline: number, unit = "ms"): BenchResult => ({
        case: name,
        db: "pglite",
        ours: round(ours),
        baseline: round(baseline),
        unit,
        ratio: round(ours / baseline),
      });
      return [
        result("large-tree-open:first-row-100k-top-level", flat, small),
        result("large-tree-open:folder-5000-opens", bigFolder, smallFolder),
        // Against the 200 MB issue 37 allows.
        result("large-tree-open:heap-after-scroll", heap, 200e6, "bytes"),
      ];
    } finally {
      await harness.stop();
    }
  },
};

export default largeTreeOpen;
