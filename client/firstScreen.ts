import type { QueryClient } from "@tanstack/react-query";
import { topLevelItemsQuery } from "./api/items.js";
import { matrixWindowQuery, NO_MATRIX_FILTER } from "./api/matrix.js";
import type { Host } from "./host/types.js";
import { goTo, locationOfPath, signInOnce, signInTarget } from "./pages/Authenticate/signIn.js";
import { tabScreenLoader } from "./components/MainLayout/tabScreens.js";
import { askHostStartEarly } from "./state/hostStart.js";
import { initialNavState, TAB_PATHS } from "./state/navigation.js";

const MAIN_SCREEN_PATHS: readonly string[] = Object.values(TAB_PATHS);

/**
 * How long the screen waits for the tree's early read before it renders with the tree still
 * loading: a slow read never holds back the whole screen.
 */
const FIRST_ROWS_WAIT_MS = 1000;

/**
 * The first screen's requests, started as the page loads instead of when React's effects get to them
 * (issue 39): the sign-in, whose JWT is in the iframe URL; for the main screen, the host's answer of
 * where it opens; once signed in, the tree's top level for the project the iframe's query names,
 * which the requirements page then finds in the query cache. A host history entry that opens another
 * place costs that one request, nothing else; one that opens the matrix has its first rows asked for
 * beside its code.
 *
 * Answers once the app can render its first screen: signed in, the iframe moved to the place the
 * sign-in leads to, the host's answer in (the main screen would only have shown a spinner before
 * it) and, when the screen opens on the tree of the project read early, that read (it would only
 * have shown the tree loading), for a second at most. The router then starts on that place: no
 * sign-in page and no spinner are rendered on the way, each a render and commit of its own (a
 * failed sign-in stays on the sign-in page, which reports it). Never rejects.
 */
export function startFirstScreen(host: Host, queryClient: QueryClient, page = window.location): Promise<void> {
  const location = locationOfPath(page.pathname);
  if (location === undefined) return Promise.resolve();
  const signedIn = signInOnce(location, { pathname: page.pathname, search: page.search }, host);
  const opens = new URL(signInTarget(location, page.search).url, page.href).pathname;
  const hostStart = MAIN_SCREEN_PATHS.includes(opens) ? askHostStartEarly(host) : undefined;
  return signedIn.then(
    async (url) => {
      const target = new URL(url, page.href);
      const named = initialNavState({ hostState: undefined, search: target.search, pathname: target.pathname });
      const treeRead =
        target.pathname === TAB_PATHS.requirements && named?.tab === "requirements"
          ? queryClient.prefetchQuery(topLevelItemsQuery(named.projectId))
          : undefined;
      goTo(url, (inPage) => window.history.replaceState(null, "", inPage));
      // The missing-license page needs no answer from the host.
      if (!hostStart || !MAIN_SCREEN_PATHS.includes(target.pathname)) return;
      const { hostState, context } = await hostStart;
      const opening = initialNavState({
        hostState,
        search: target.search,
        pathname: target.pathname,
        contextProjectId: context?.projectId,
      });
      // The matrix's first rows are asked for while its code is on its way, and first: over HTTP/1.1 the
      // code's files take the six connections, and asked after them the rows waited 140-230 ms to be
      // sent (a failed read is the screen's to retry).
      if (opening?.tab === "traceability") void queryClient.prefetchQuery(matrixWindowQuery(opening.projectId, NO_MATRIX_FILTER, 0));
      // A screen that opens on another tab has its code asked for now, beside the first render, not after it.
      // (A failed load is the tab's to report when it renders.)
      if (opening) tabScreenLoader(opening.tab)?.().catch(() => undefined);
      // The tree's first rows render with the screen when it opens on the project read early, unless the read is slow.
      if (opening?.tab === "requirements" && opening.projectId === named?.projectId) {
        await Promise.race([treeRead, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT_MS))]);
      }
    },
    // The sign-in page reports a failed sign-in.
    () => undefined,
  );
}
