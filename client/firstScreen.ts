import type { QueryClient } from "@tanstack/react-query";
import { topLevelItemsQuery } from "./api/items.js";
import type { Host } from "./host/types.js";
import { locationOfPath, signInOnce } from "./pages/Authenticate/signIn.js";
import { initialNavState } from "./state/navigation.js";

/**
 * The first screen's requests, started as the page loads instead of when React's effects get to them
 * (issue 39): the sign-in, whose JWT is in the iframe URL, and, once signed in, the tree's top level
 * for the project the iframe's query names, which the requirements page then finds in the query
 * cache. A host history entry that opens another place costs that one request, nothing else.
 */
export function startFirstScreen(host: Pick<Host, "getContextToken">, queryClient: QueryClient, page = window.location): void {
  const location = locationOfPath(page.pathname);
  if (location === undefined) return;
  const signedIn = signInOnce(location, { pathname: page.pathname, search: page.search }, host);
  void signedIn.then(
    (url) => {
      const target = new URL(url, page.href);
      const nav = initialNavState({ hostState: undefined, search: target.search, pathname: target.pathname });
      if (target.pathname === "/requirements" && nav?.tab === "requirements") {
        return queryClient.prefetchQuery(topLevelItemsQuery(nav.projectId));
      }
    },
    // The Authenticate page reports a failed sign-in.
    () => undefined,
  );
}
