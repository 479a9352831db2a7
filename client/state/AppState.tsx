import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from "react";
import { useNavigate } from "react-router-dom";
import { useHost } from "../host/index.js";
import { type AppSnapshot, AppStore, type FrameLocation } from "./appStore.js";
import { type BaselinePage, baselinePageOf, type NavState } from "./navigation.js";

export type { BaselinePage, NavState } from "./navigation.js";

const StoreContext = createContext<AppStore | undefined>(undefined);

/** The iframe's location as the router holds it: the path follows the tab without a history entry of its own. */
function routerFrame(navigate: ReturnType<typeof useNavigate>): FrameLocation {
  return {
    get pathname() {
      return window.location.pathname;
    },
    get search() {
      return window.location.search;
    },
    replacePath(pathname) {
      void navigate({ pathname, search: window.location.search, hash: window.location.hash }, { replace: true });
    },
  };
}

/** The main screen's shared state (spec sections 2 and 4): the requirements, matrix and baselines screens read it here. */
export function AppStateProvider({ store: given, children }: { store?: AppStore; children: ReactNode }) {
  const host = useHost();
  const navigate = useNavigate();
  const [store] = useState(() => given ?? new AppStore(host, routerFrame(navigate)));
  useEffect(() => store.start(), [store]);
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

function useStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("the main screen's state needs an AppStateProvider above it");
  return store;
}

/**
 * One part of the main screen's state. A component re-renders only when its part changes, so a
 * ticked checkbox re-renders the tree's rows, not the layout around them.
 */
function useAppSelector<T>(select: (snapshot: AppSnapshot) => T): T {
  const store = useStore();
  const selected = () => select(store.getSnapshot());
  return useSyncExternalStore(store.subscribe, selected, selected);
}

export type AppActions = Pick<
  AppStore,
  "navigate" | "redirect" | "selectProject" | "setFolderOpen" | "setSelectedRequirements" | "setBaselinePage"
>;

/**
 * What changes the main screen: `navigate` shows another place and pushes it to the host history,
 * `redirect` replaces the current entry, `selectProject` clears open folders and selection and keeps
 * the tab. Stable functions: using them never re-renders.
 */
export function useAppActions(): AppActions {
  return useStore();
}

/** The place shown: project, tab, open requirement, folder or baseline. */
export const useNav = (): NavState | undefined => useAppSelector((snapshot) => snapshot.nav);

export const useProjectId = (): number | undefined => useAppSelector((snapshot) => snapshot.nav?.projectId);

export const useOpenFolders = (): ReadonlySet<number> => useAppSelector((snapshot) => snapshot.openFolders);

export const useSelectedRequirements = (): ReadonlySet<number> => useAppSelector((snapshot) => snapshot.selectedRequirements);

export const useBaselinePage = (): BaselinePage => useAppSelector((snapshot) => baselinePageOf(snapshot.nav));

/** Whether the opening place is known yet (the host history answers asynchronously). */
export function useAppStateReady(): boolean {
  const store = useContext(StoreContext);
  return useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    () => store?.getSnapshot().ready ?? true,
    () => store?.getSnapshot().ready ?? true,
  );
}

const noSubscribe = () => () => undefined;
