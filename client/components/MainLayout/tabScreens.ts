import type { MainTab } from "../../state/navigation.js";

/**
 * The code of the main screen's other tabs, loaded when a tab is first opened (issue 39), or as the
 * page loads when it opens on that tab (client/firstScreen.ts): one loader each, so both ask for
 * the same chunk.
 */
export const loadTraceabilityScreen = () => import("../../pages/TraceabilityMatrix/TraceabilityMatrixPage.js");
export const loadBaselinesScreen = () => import("../../pages/Baselines/BaselinesPage.js");

/** The loader of a tab's screen; the requirements tab is in the first screen's own code. */
export function tabScreenLoader(tab: MainTab): (() => Promise<unknown>) | undefined {
  if (tab === "traceability") return loadTraceabilityScreen;
  if (tab === "baselines" || tab === "comparison") return loadBaselinesScreen;
  return undefined;
}
