/**
 * Which HTML entry answers each SPA route (spec section 2, Routes). The issue panel has a light
 * entry of its own so that an issue view never loads the main screen's tree, matrix or baselines.
 * Shared by the server (which html to send) and the client (whether a redirect can stay in-page).
 */
export type SpaEntry = "index" | "panel";

export const PANEL_LOCATION = "issue-view-requirements-right-panel";

export const SPA_ROUTES: readonly string[] = [
  "/configuration",
  `/${PANEL_LOCATION}`,
  "/link-requirements-dialog",
  "/getting-started",
  "/confluence-linked-requirements-macro",
  "/confluence-linked-requirements-macro-editor",
  "/confluence-insert-requirements-macro",
  "/confluence-insert-requirements-macro-editor",
  "/missing-license",
  "/requirements",
  "/traceability-matrix",
  "/baselines",
];

const AUTHENTICATE = /^\/authenticate\/([^/]+)\/?$/;

/** The entry for a path, or undefined when the path is no SPA route. */
export function spaEntryOf(pathname: string): SpaEntry | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  const authenticate = AUTHENTICATE.exec(path);
  if (authenticate) return authenticate[1] === PANEL_LOCATION ? "panel" : "index";
  if (!SPA_ROUTES.includes(path)) return undefined;
  return path === `/${PANEL_LOCATION}` ? "panel" : "index";
}
