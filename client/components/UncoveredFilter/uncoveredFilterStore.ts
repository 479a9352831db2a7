import { useSyncExternalStore } from "react";
import type { Uncovered } from "../../api/coverage.js";

/**
 * The tree shows only the requirements lacking this coverage: in a project, or in a folder's
 * subtree when the folder detail's figure asked for it.
 */
export type UncoveredFilter = { projectId: number; uncovered: Uncovered; folder?: { folderId: number; name: string } };

let current: UncoveredFilter | undefined;
const listeners = new Set<() => void>();

/**
 * Screen state like the open folders, not a place in the host history: the navigation state's
 * forms are the spec's (section 2), and a reload shows the whole tree again. It outlives the
 * Requirements screen so that a figure clicked above the matrix opens the filtered tree.
 */
export function setUncoveredFilter(filter: UncoveredFilter | undefined) {
  current = filter;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => current;

/** The filter of this project's tree, if one is set (a filter of another project does not apply). */
export function useUncoveredFilter(projectId: number): UncoveredFilter | undefined {
  const filter = useSyncExternalStore(subscribe, snapshot, snapshot);
  return filter?.projectId === projectId ? filter : undefined;
}
