import { token } from "@atlaskit/tokens";
import type { CSSProperties } from "react";

/**
 * The bordered pane a virtualised list scrolls in: it fills the iframe below the screen's own
 * header (`chromeHeight`), so only the rows scroll and the virtualiser has a fixed viewport.
 */
export function scrollPaneStyle(chromeHeight: number): CSSProperties {
  return {
    height: `calc(100vh - ${chromeHeight}px)`,
    minHeight: 320,
    overflow: "auto",
    border: `1px solid ${token("color.border")}`,
    borderRadius: token("radius.small"),
  };
}
