import { spaEntryOf } from "../../../common/spaRoutes.js";
import { exchangeToken, isLicenseError } from "../../api/auth.js";
import { type Product, tokenStore } from "../../api/client.js";
import type { Host } from "../../host/types.js";

/** Spec section 2, Sign-in hand-off: the locations that have a page of their own. */
export const SIGN_IN_LOCATIONS = [
  "configuration",
  "issue-view-requirements-right-panel",
  "confluence-linked-requirements-macro-editor",
  "confluence-linked-requirements-macro",
  "confluence-insert-requirements-macro-editor",
  "confluence-insert-requirements-macro",
  "getting-started",
  "link-requirements-dialog",
] as const;

const WIKI_LOCATIONS: readonly string[] = SIGN_IN_LOCATIONS.filter((location) => location.startsWith("confluence-"));

export const MISSING_LICENSE_PATH = "/missing-license";

/** The query string to carry over: everything the host passed but the single-use JWT. */
export function withoutJwt(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("jwt");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/** Where a location leads after sign-in, and which product the user signs in from. */
export function signInTarget(location: string, search: string): { url: string; product: Product } {
  const known = (SIGN_IN_LOCATIONS as readonly string[]).includes(location);
  return {
    url: `${known ? `/${location}` : "/requirements"}${withoutJwt(search)}`,
    product: WIKI_LOCATIONS.includes(location) ? "confluence" : "jira",
  };
}

/**
 * Exchanges the host's JWT for our token and answers where to go next: the location's page, or the
 * missing-license page (logged out) when the exchange is refused for the license.
 */
export async function signIn(
  location: string,
  page: { pathname: string; search: string },
  host: Pick<Host, "getContextToken">,
): Promise<string> {
  const target = signInTarget(location, page.search);
  try {
    await exchangeToken({ fullPath: page.pathname + page.search, method: "GET", product: target.product }, { search: page.search, host });
    return target.url;
  } catch (error) {
    if (!isLicenseError(error)) throw error;
    tokenStore.clear();
    return MISSING_LICENSE_PATH + withoutJwt(page.search);
  }
}

const started = new Map<string, Promise<string>>();

/**
 * The sign-in of this page, started once however many ask: the entry starts it as the page loads (the
 * JWT is in the iframe URL; nothing needs React for it, issue 39), and the Authenticate page takes
 * the same answer instead of exchanging the single-use JWT again.
 */
export function signInOnce(
  location: string,
  page: { pathname: string; search: string },
  host: Pick<Host, "getContextToken">,
): Promise<string> {
  const key = page.pathname + page.search;
  let signedIn = started.get(key);
  if (!signedIn) {
    signedIn = signIn(location, page, host);
    started.set(key, signedIn);
  }
  return signedIn;
}

/** Stays in the page when the target is served by the same html entry; loads the other entry otherwise. */
export function goTo(url: string, replaceInPage: (url: string) => void): void {
  const path = new URL(url, window.location.href).pathname;
  if (spaEntryOf(path) === spaEntryOf(window.location.pathname)) replaceInPage(url);
  else window.location.replace(url);
}

export function locationOfPath(pathname: string): string | undefined {
  return /^\/authenticate\/([^/]+)/.exec(pathname)?.[1];
}
