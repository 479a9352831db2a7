import { round } from "../measure.js";
import {
  buildOnce,
  firstRowTimings,
  ISSUE_PAGE,
  PANEL_FRAME,
  PANEL_ROW,
  PANEL_ROW_MARKUP,
  versusEmptyFrame,
  withProductionPages,
} from "../productionPages.js";
import { JIRA_LATENCY_NOTE } from "../emulatedJira.js";
import type { BenchCase } from "../types.js";

/**
 * Issue 39: the Jira issue panel, which opens in every issue view, in the production build,
 * headless Chromium, the emulated Jira's issue page (medians of 5, cold and warm):
 * - the gzipped scripts and styles panel.html loads up front, against the requirements page's;
 * - ms from the panel iframe's document request to its first linked requirement, against the whole
 *   wait from navigating to the issue;
 * - a repeat visit (assets from the browser's cache) against a first one;
 * - the cold first row against an empty frame's: the same page, its frame's document holding only a
 *   row and the host's bridge script, the floor of this browser, machine and host page in this run.
 */
const issuePanelFirstRow: BenchCase = {
  name: "issue-panel-first-row",
  async run(context) {
    const loads = await buildOnce();
    const bytes = (entry: string) => loads.find((load) => load.entry === entry)?.gzipBytes ?? Number.NaN;
    const timings = await withProductionPages(context, (harness) =>
      firstRowTimings(harness, ISSUE_PAGE, PANEL_FRAME, PANEL_ROW, PANEL_ROW_MARKUP),
    );
    const { cold, warm } = timings;
    return [
      {
        case: "issue-panel-initial-load-gzip-vs-first-screen",
        db: "none",
        ours: bytes("panel.html"),
        baseline: bytes("index.html"),
        unit: "bytes",
        ratio: round(bytes("panel.html") / bytes("index.html")),
      },
      {
        case: "issue-panel-cold-frame-to-row-vs-page",
        note: JIRA_LATENCY_NOTE,
        db: context.db,
        ours: round(cold.fromFrameRequest, 1),
        baseline: round(cold.fromNavigation, 1),
        unit: "ms",
        ratio: round(cold.fromFrameRequest / cold.fromNavigation),
      },
      {
        case: "issue-panel-warm-vs-cold-frame-to-row",
        note: JIRA_LATENCY_NOTE,
        db: context.db,
        ours: round(warm.fromFrameRequest, 1),
        baseline: round(cold.fromFrameRequest, 1),
        unit: "ms",
        ratio: round(warm.fromFrameRequest / cold.fromFrameRequest),
      },
      versusEmptyFrame("issue-panel", context, timings),
    ];
  },
};

export default issuePanelFirstRow;
