import { useCallback, useMemo, useState } from "react";
import { requirementCategory } from "../../../common/labels.js";
import { UNCOVERED_WINDOW_ITEMS, useUncoveredWindows } from "../../api/coverage.js";
import type { TreeItem } from "../../api/items.js";
import { flattenTree } from "../RequirementTree/flattenTree.js";
import type { UncoveredFilter } from "./uncoveredFilterStore.js";

const FIRST_WINDOW: readonly number[] = [0];

/**
 * The filtered tree's rows: the uncovered requirements as one flat level, a window at a time as
 * they scroll into view (a project of 100,000 may have tens of thousands), placeholders until then.
 */
export function useUncoveredRows(projectId: number, filter: UncoveredFilter | undefined) {
  // The windows asked for belong to one filter: another one starts again at its first window.
  const filterKey = `${filter?.uncovered}/${filter?.folder?.folderId}`;
  const [asked, setAsked] = useState<{ filterKey: string; windows: readonly number[] }>({ filterKey, windows: [0] });
  const windows = asked.filterKey === filterKey ? asked.windows : FIRST_WINDOW;
  const scope = { projectId, folderId: filter?.folder?.folderId };
  const results = useUncoveredWindows(scope, filter?.uncovered, windows);
  const total = results[0]?.data?.total;
  const rows = useMemo(() => {
    const loaded = new Map<number, TreeItem[]>();
    windows.forEach((window, n) => {
      const requirements = results[n]?.data?.requirements;
      if (requirements) {
        loaded.set(
          window,
          requirements.map((requirement) => ({ type: "requirement", ...requirement, category: requirementCategory(requirement.level) })),
        );
      }
    });
    return flattenTree({ total: total ?? 0, windowItems: UNCOVERED_WINDOW_ITEMS, windows: loaded }, new Map(), new Set());
  }, [results, windows, total]);

  const showRows = useCallback(
    (first: number, last: number) => {
      setAsked((previous) => {
        const known = previous.filterKey === filterKey ? previous.windows : FIRST_WINDOW;
        const wanted = [];
        for (let window = Math.floor(first / UNCOVERED_WINDOW_ITEMS); window <= Math.floor(last / UNCOVERED_WINDOW_ITEMS); window++) {
          if (!known.includes(window)) wanted.push(window);
        }
        return wanted.length === 0 && known === previous.windows ? previous : { filterKey, windows: [...known, ...wanted] };
      });
    },
    [filterKey],
  );

  return { rows, showRows, total, isLoading: results[0]?.isLoading ?? false, isError: results.some((result) => result.isError) };
}
