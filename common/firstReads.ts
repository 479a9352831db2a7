import { GLOBAL_PROJECT_ID } from "./constants.js";
import { PANEL_LOCATION, type SpaEntry } from "./spaRoutes.js";

/**
 * The reads a page starts with, by address: the client's API module asks them, and the server
 * writes them into the page, where client/public/early-sign-in.js starts them the moment the sign-in
 * answers, while the app's scripts are still loading (issue 39). One builder each, so that the two
 * can only ask the same.
 */

/** Items per window the tree asks for: many screens' worth, half the API's maximum. */
export const TREE_WINDOW_ITEMS = 500;

/** Window `window` of a tree level (the project's top level, or a folder's children): items window*500 to window*500+499. */
export function levelWindowAddress(projectId: number | string, parentFolderId: number | null, window: number): string {
  const path = parentFolderId === null ? "/api/item/primary" : `/api/item/${parentFolderId}/descendant`;
  return `${path}?atlassian_project_id=${projectId}&offset=${window * TREE_WINDOW_ITEMS}&limit=${TREE_WINDOW_ITEMS}`;
}

/** The requirements of a project linked to an issue. */
export function issueRequirementsAddress(projectId: number | string, issueId: number | string): string {
  return `/api/requirement?atlassian_project_id=${projectId}&atlassian_issue_id=${issueId}`;
}

/** The signed-in user and their site. */
export const USER_ADDRESS = "/api/user";

/** The meta tag early-sign-in.js reads (a plain script: it cannot import this name). */
export const FIRST_READ_META = "rmcloud-first-read";

/**
 * A read the page at the sign-in location `location` starts with. `{name}` in the address stands for
 * the iframe URL's query parameter of that name, which must be digits (an id), or the read is not
 * started early.
 */
export type FirstRead = { location: string; address: string };

/**
 * Each entry's first reads. The requirements page's is its tree's first window of the top level, for
 * the project the iframe URL names; the issue panel's are the user and the requirements linked to the
 * issue, the project's and the global ones (client/panel.tsx). The app takes an early answer only when
 * it asks exactly that (the same address and token), so a project chosen otherwise (the host's
 * history, a deep link) costs one unused read.
 */
export const FIRST_READS: Record<SpaEntry, readonly FirstRead[]> = {
  index: [{ location: "requirements", address: levelWindowAddress("{projectId}", null, 0) }],
  panel: [USER_ADDRESS, issueRequirementsAddress("{projectId}", "{issueId}"), issueRequirementsAddress(GLOBAL_PROJECT_ID, "{issueId}")].map(
    (address) => ({ location: PANEL_LOCATION, address }),
  ),
};
