import { useSyncExternalStore } from "react";

/** Below this width of the app's frame the requirements screen stacks the tree above the detail. */
export const NARROW_FRAME_PX = 1000;

const query = `(max-width: ${NARROW_FRAME_PX - 1}px)`;

/** Whether the frame Jira gives the app is narrow; follows resizes (Jira shows apps in narrow frames too). */
export function useNarrowFrame(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
  );
}
