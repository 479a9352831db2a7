import type { Host } from "../host/types.js";
import { type HostStart, hostStartAnswered, takeHostStart } from "./hostStart.js";
import {
  type BaselinePage,
  formatNavState,
  initialNavState,
  type NavState,
  navForProject,
  parseNavState,
  TAB_PATHS,
} from "./navigation.js";

export type AppSnapshot = {
  ready: boolean;
  nav: NavState | undefined;
  openFolders: ReadonlySet<number>;
  selectedRequirements: ReadonlySet<number>;
};

/** What the page is showing in the iframe itself: its path (one per tab) and query string. */
export type FrameLocation = {
  pathname: string;
  search: string;
  replacePath(pathname: string): void;
};

/**
 * The main screen's state outside React, so that its rules run (and are tested) without a DOM.
 * Navigation goes to the host history; the iframe path follows the tab without its own history
 * entries, so back and forward step through the host's entries only.
 */
export class AppStore {
  private snapshot: AppSnapshot = { ready: false, nav: undefined, openFolders: new Set(), selectedRequirements: new Set() };
  private readonly listeners = new Set<() => void>();
  private startNav: NavState | undefined;

  /** When the host has already said where the screen opens (asked as the page loaded), the store starts ready on that place. */
  constructor(
    private readonly host: Pick<Host, "history" | "getContext">,
    private readonly frame: FrameLocation,
  ) {
    const answered = hostStartAnswered(host);
    if (answered) {
      this.startNav = this.navOf(answered);
      this.snapshot = { ...this.snapshot, ready: true, nav: this.startNav };
    }
  }

  /** Resolves where the screen opens and follows back/forward; returns the unsubscribe. */
  start(): () => void {
    const stopPop = this.host.history.onPopState((state) => this.apply(parseNavState(state) ?? this.startNav));
    const answer = takeHostStart(this.host);
    if (this.snapshot.ready) {
      this.apply(this.startNav);
    } else {
      void answer.then((start) => {
        this.startNav = this.navOf(start);
        this.update({ ready: true });
        this.apply(this.startNav);
      });
    }
    return stopPop;
  }

  private navOf({ hostState, context }: HostStart): NavState | undefined {
    return initialNavState({ hostState, search: this.frame.search, pathname: this.frame.pathname, contextProjectId: context?.projectId });
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private update(patch: Partial<AppSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /**
   * Spec section 4: another project clears open folders and selected requirements, whichever way
   * the screen got there (the project list, a linked requirement of another project, back or
   * forward): a selection kept across projects would move or delete requirements the tree no
   * longer shows.
   */
  private apply(nav: NavState | undefined) {
    const otherProject = nav?.projectId !== this.snapshot.nav?.projectId;
    this.update(otherProject ? { nav, openFolders: new Set(), selectedRequirements: new Set() } : { nav });
    const path = nav && TAB_PATHS[nav.tab];
    if (path && this.frame.pathname !== path) this.frame.replacePath(path);
  }

  navigate = (next: NavState) => {
    this.host.history.pushState(formatNavState(next));
    this.apply(next);
  };

  /** Shows another place in the current host history entry: a place corrected, not a step the user took. */
  redirect = (next: NavState) => {
    this.host.history.replaceState(formatNavState(next));
    this.apply(next);
  };

  selectProject = (projectId: number) => {
    this.navigate(navForProject(this.snapshot.nav, projectId));
  };

  setFolderOpen = (folderId: number, open: boolean) => {
    if (this.snapshot.openFolders.has(folderId) === open) return;
    const openFolders = new Set(this.snapshot.openFolders);
    if (open) openFolders.add(folderId);
    else openFolders.delete(folderId);
    this.update({ openFolders });
  };

  setSelectedRequirements = (ids: Iterable<number>) => {
    this.update({ selectedRequirements: new Set(ids) });
  };

  setBaselinePage = (page: BaselinePage) => {
    const nav = this.snapshot.nav;
    const tab = page === "baseline-comparison" ? "comparison" : "baselines";
    if (nav && nav.tab !== tab) this.navigate({ projectId: nav.projectId, tab });
  };
}
