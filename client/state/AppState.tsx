import { createContext, type ReactNode, useContext, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useNavigate } from "react-router-dom";
import { useHost } from "../host/index.js";
import { AppStore, type FrameLocation } from "./appStore.js";
import { type BaselinePage, baselinePageOf, type NavState } from "./navigation.js";

export type { BaselinePage, NavState } from "./navigation.js";

/** The main screen's shared state (spec sections 2 and 4); the requirements, matrix and baselines screens read it here. */
export type AppState = {
  projectId: number | undefined;
  nav: NavState | undefined;
  /** Shows another place and pushes it to the host history. */
  navigate(next: NavState): void;
  /** Shows another place in place of the current host history entry. */
  redirect(next: NavState): void;
  openFolders: ReadonlySet<number>;
  setFolderOpen(folderId: number, open: boolean): void;
  selectedRequirements: ReadonlySet<number>;
  setSelectedRequirements(ids: Iterable<number>): void;
  /** Clears open folders and selection, keeps the tab, drops the open requirement, folder or baseline. */
  selectProject(projectId: number): void;
  baselinePage: BaselinePage;
  setBaselinePage(page: BaselinePage): void;
};

const AppStateContext = createContext<AppState | undefined>(undefined);
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

export function AppStateProvider({ store: given, children }: { store?: AppStore; children: ReactNode }) {
  const host = useHost();
  const navigate = useNavigate();
  const [store] = useState(() => given ?? new AppStore(host, routerFrame(navigate)));
  useEffect(() => store.start(), [store]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const value = useMemo<AppState>(
    () => ({
      projectId: snapshot.nav?.projectId,
      nav: snapshot.nav,
      navigate: store.navigate,
      redirect: store.redirect,
      openFolders: snapshot.openFolders,
      setFolderOpen: store.setFolderOpen,
      selectedRequirements: snapshot.selectedRequirements,
      setSelectedRequirements: store.setSelectedRequirements,
      selectProject: store.selectProject,
      baselinePage: baselinePageOf(snapshot.nav),
      setBaselinePage: store.setBaselinePage,
    }),
    [snapshot, store],
  );
  return (
    <StoreContext.Provider value={store}>
      <AppStateContext.Provider value={value}>{children}</AppStateContext.Provider>
    </StoreContext.Provider>
  );
}

export function useAppState(): AppState {
  const state = useContext(AppStateContext);
  if (!state) throw new Error("useAppState needs an AppStateProvider above it");
  return state;
}

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
