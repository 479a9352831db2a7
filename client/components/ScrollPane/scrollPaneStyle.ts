import { token } from "@atlaskit/tokens";
import type { CSSProperties } from "react";

const MIN_PANE_HEIGHT = 320;

/**
 * The bordered pane a virtualised list scrolls in: it fills the iframe below the screen's own
 * header (`chromeHeight`), so only the rows scroll and the virtualiser has a fixed viewport.
 */
export function scrollPaneStyle(chromeHeight: number): CSSProperties {
  return {
    height: `calc(100vh - ${chromeHeight}px)`,
    minHeight: MIN_PANE_HEIGHT,
    overflow: "auto",
    border: `1px solid ${token("color.border")}`,
    borderRadius: token("radius.small"),
  };
}

/**
 * The pane's size as its style will lay it out, for the virtualiser's first render (its
 * `initialRect`): the rows in view render at once, not in a second render after the pane is
 * measured (issue 39). The width is not used by a vertical list.
 */
export function scrollPaneRect(chromeHeight: number): { width: number; height: number } {
  return { width: 0, height: Math.max(MIN_PANE_HEIGHT, window.innerHeight - chromeHeight) };
}
