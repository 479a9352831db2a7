import type { MainTab } from "../../state/navigation.js";

/** The tabs of spec section 2, in order; comparison is a page of the Baselines tab. */
export const TABS: ReadonlyArray<{ label: string; tab: MainTab }> = [
  { label: "Requirements", tab: "requirements" },
  { label: "Traceability Matrix", tab: "traceability" },
  { label: "Baselines", tab: "baselines" },
];

export function tabIndexOf(tab: MainTab): number {
  return TABS.findIndex((entry) => entry.tab === (tab === "comparison" ? "baselines" : tab));
}
