import { round } from "../measure.js";
import {
  allAssetBytes,
  buildOnce,
  firstRowTimings,
  MAIN_FRAME,
  PROJECT_PAGE,
  TREE_ROW,
  TREE_ROW_MARKUP,
  versusEmptyFrame,
  withProductionPages,
} from "../productionPages.js";
import { JIRA_LATENCY_NOTE } from "../emulatedJira.js";
import type { BenchCase } from "../types.js";

/**
 * Issue 39: the requirements page's first screen in the production build, headless Chromium, the
 * emulated Jira's project page (medians of 5, cold and warm):
 * - the gzipped scripts and styles index.html loads before the first tree row, against all the build holds;
 * - ms from the add-on iframe's document request to the first tree row, against the whole wait from
 *   navigating to the project page (the rest is the host page's own);
 * - a repeat visit (assets from the browser's cache) against a first one, from the iframe's request
 *   and from navigation;
 * - the cold first row against an empty frame's: the same page, its frame's document holding only a
 *   row and the host's bridge script, the floor of this browser, machine and host page in this run.
 */
const firstScreen: BenchCase = {
  name: "first-screen",
  async run(context) {
    const loads = await buildOnce();
    const initial = loads.find((load) => load.entry === "index.html")?.gzipBytes ?? Number.NaN;
    const all = allAssetBytes();
    const timings = await withProductionPages(context, (harness) =>
      firstRowTimings(harness, PROJECT_PAGE, MAIN_FRAME, TREE_ROW, TREE_ROW_MARKUP),
    );
    const { cold, warm } = timings;
    return [
      { case: "first-screen-initial-load-gzip", db: "none", ours: initial, baseline: all, unit: "bytes", ratio: round(initial / all) },
      {
        case: "first-screen-cold-frame-to-row-vs-page",
        note: JIRA_LATENCY_NOTE,
        db: context.db,
        ours: round(cold.fromFrameRequest, 1),
        baseline: round(cold.fromNavigation, 1),
        unit: "ms",
        ratio: round(cold.fromFrameRequest / cold.fromNavigation),
      },
      {
        case: "first-screen-warm-vs-cold-frame-to-row",
        note: JIRA_LATENCY_NOTE,
        db: context.db,
        ours: round(warm.fromFrameRequest, 1),
        baseline: round(cold.fromFrameRequest, 1),
        unit: "ms",
        ratio: round(warm.fromFrameRequest / cold.fromFrameRequest),
      },
      {
        case: "first-screen-warm-vs-cold-page",
        note: JIRA_LATENCY_NOTE,
        db: context.db,
        ours: round(warm.fromNavigation, 1),
        baseline: round(cold.fromNavigation, 1),
        unit: "ms",
        ratio: round(warm.fromNavigation / cold.fromNavigation),
      },
      versusEmptyFrame("first-screen", context, timings),
    ];
  },
};

export default firstScreen;
