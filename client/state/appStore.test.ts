import { describe, expect, it } from "vitest";
import type { Host } from "../host/types.js";
import { AppStore, type FrameLocation } from "./appStore.js";
import { askHostStartEarly } from "./hostStart.js";

function fakeHost(options: { state?: string; contextProjectId?: string } = {}) {
  const pushed: string[] = [];
  const replaced: string[] = [];
  let popListener: ((state: string | undefined) => void) | undefined;
  let stateAsks = 0;
  const host: Pick<Host, "history" | "getContext"> = {
    history: {
      getState: async () => {
        stateAsks++;
        return options.state;
      },
      pushState: (state) => pushed.push(state),
      replaceState: (state) => replaced.push(state),
      onPopState(listener) {
        popListener = listener;
        return () => {
          popListener = undefined;
        };
      },
    },
    getContext: async () => ({ product: "jira", projectId: options.contextProjectId }),
  };
  return { host, pushed, replaced, pop: (state: string | undefined) => popListener?.(state), stateAsks: () => stateAsks };
}

function fakeFrame(pathname: string, search = ""): FrameLocation {
  return {
    pathname,
    search,
    replacePath(path) {
      this.pathname = path;
    },
  };
}

async function started(host: Pick<Host, "history" | "getContext">, frame: FrameLocation) {
  const store = new AppStore(host, frame);
  store.start();
  await new Promise<void>((resolve) => {
    const stop = store.subscribe(() => {
      if (store.getSnapshot().ready) {
        stop();
        resolve();
      }
    });
  });
  return store;
}

describe("the main screen's state", () => {
  it("opens the requirement a link names", async () => {
    const { host } = fakeHost();
    const store = await started(host, fakeFrame("/requirements", "?projectId=10000&requirementId=12"));
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "requirements", requirementId: 12 });
  });

  it("asks the host for its history state and its context at once, before either answers", async () => {
    const { host } = fakeHost({ contextProjectId: "10001" });
    const asked: string[] = [];
    let answerState: (state: string | undefined) => void = () => undefined;
    host.history.getState = () => {
      asked.push("state");
      return new Promise((resolve) => {
        answerState = resolve;
      });
    };
    const context = host.getContext;
    host.getContext = () => {
      asked.push("context");
      return context();
    };
    const store = new AppStore(host, fakeFrame("/requirements"));
    store.start();
    await Promise.resolve();
    expect(asked).toEqual(["state", "context"]);
    answerState(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getSnapshot().nav).toEqual({ projectId: 10001, tab: "requirements" });
  });

  it("opens the project of the host page when the URL names none", async () => {
    const { host } = fakeHost({ contextProjectId: "10001" });
    const store = await started(host, fakeFrame("/requirements"));
    expect(store.getSnapshot().nav).toEqual({ projectId: 10001, tab: "requirements" });
  });

  it("returns to the place in the host history and shows its tab's page", async () => {
    const { host } = fakeHost({ state: "10000-traceability" });
    const frame = fakeFrame("/requirements", "?projectId=10002");
    const store = await started(host, frame);
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "traceability" });
    expect(frame.pathname).toBe("/traceability-matrix");
  });

  it("pushes each navigation to the host history", async () => {
    const { host, pushed } = fakeHost();
    const frame = fakeFrame("/requirements", "?projectId=10000");
    const store = await started(host, frame);
    store.navigate({ projectId: 10000, tab: "requirements", folderId: 4 });
    store.navigate({ projectId: 10000, tab: "baselines", baselineId: 2 });
    expect(pushed).toEqual(["10000-folder-4", "10000-baselines-2"]);
    expect(frame.pathname).toBe("/baselines");
  });

  it("re-applies the state on back and forward, and the opening place past the first entry", async () => {
    const { host, pop } = fakeHost();
    const store = await started(host, fakeFrame("/requirements", "?projectId=10000"));
    store.navigate({ projectId: 10000, tab: "requirements", requirementId: 5 });
    store.navigate({ projectId: 10000, tab: "requirements", requirementId: 6 });
    pop("10000-requirements-5");
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "requirements", requirementId: 5 });
    pop(undefined);
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "requirements" });
  });

  it("clears open folders and selection when the project changes, keeping the tab", async () => {
    const { host, pushed } = fakeHost({ state: "10000-baselines-3" });
    const store = await started(host, fakeFrame("/baselines"));
    store.setFolderOpen(1, true);
    store.setFolderOpen(2, true);
    store.setFolderOpen(1, false);
    store.setSelectedRequirements([7, 8]);
    expect([...store.getSnapshot().openFolders]).toEqual([2]);
    expect([...store.getSnapshot().selectedRequirements]).toEqual([7, 8]);
    store.selectProject(0);
    expect(store.getSnapshot().nav).toEqual({ projectId: 0, tab: "baselines" });
    expect(store.getSnapshot().openFolders.size).toBe(0);
    expect(store.getSnapshot().selectedRequirements.size).toBe(0);
    expect(pushed).toEqual(["0-baselines"]);
  });

  it("clears the selection when a navigation or back and forward lands in another project", async () => {
    const { host, pop } = fakeHost({ state: "10000-requirements-5" });
    const store = await started(host, fakeFrame("/requirements"));
    store.setFolderOpen(3, true);
    store.setSelectedRequirements([5, 6]);
    store.navigate({ projectId: 10000, tab: "requirements", requirementId: 6 });
    expect([...store.getSnapshot().selectedRequirements]).toEqual([5, 6]);
    store.navigate({ projectId: 0, tab: "requirements", requirementId: 40 });
    expect(store.getSnapshot().selectedRequirements.size).toBe(0);
    expect(store.getSnapshot().openFolders.size).toBe(0);
    store.setSelectedRequirements([40]);
    pop("10000-requirements-6");
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "requirements", requirementId: 6 });
    expect(store.getSnapshot().selectedRequirements.size).toBe(0);
  });

  it("corrects the place in the current history entry instead of adding one", async () => {
    const { host, pushed, replaced } = fakeHost();
    const frame = fakeFrame("/requirements", "?projectId=10000&requirementId=12");
    const store = await started(host, frame);
    store.redirect({ projectId: 0, tab: "requirements", requirementId: 12 });
    expect(store.getSnapshot().nav).toEqual({ projectId: 0, tab: "requirements", requirementId: 12 });
    expect(replaced).toEqual(["0-requirements-12"]);
    expect(pushed).toEqual([]);
  });

  it("switches between the baseline explorer and comparison pages", async () => {
    const { host, pushed } = fakeHost({ state: "10000-baselines-3" });
    const store = await started(host, fakeFrame("/baselines"));
    store.setBaselinePage("baseline-explorer");
    store.setBaselinePage("baseline-comparison");
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "comparison" });
    store.setBaselinePage("baseline-explorer");
    expect(pushed).toEqual(["10000-comparison", "10000-baselines"]);
  });

  it("has no project until one is chosen", async () => {
    const { host } = fakeHost();
    const store = await started(host, fakeFrame("/requirements"));
    expect(store.getSnapshot().nav).toBeUndefined();
    store.selectProject(10000);
    expect(store.getSnapshot().nav).toEqual({ projectId: 10000, tab: "requirements" });
  });

  it("opens on the place the host named as the page loaded, ready in its first render, and asks again for a screen opened later", async () => {
    const { host, stateAsks } = fakeHost({ state: "10000-traceability" });
    await askHostStartEarly(host);
    const frame = fakeFrame("/requirements");
    const store = new AppStore(host, frame);
    expect(store.getSnapshot()).toMatchObject({ ready: true, nav: { projectId: 10000, tab: "traceability" } });
    store.start();
    expect(frame.pathname).toBe("/traceability-matrix");
    expect(stateAsks()).toBe(1);

    const later = await started(host, fakeFrame("/requirements"));
    expect(later.getSnapshot().nav).toEqual({ projectId: 10000, tab: "traceability" });
    expect(stateAsks()).toBe(2);
  });

  it("waits for the page-load question when the host has not answered it yet, without asking twice", async () => {
    const { host } = fakeHost({ contextProjectId: "10001" });
    let asked = 0;
    let answerState: (state: string | undefined) => void = () => undefined;
    host.history.getState = () => {
      asked++;
      return new Promise((resolve) => {
        answerState = resolve;
      });
    };
    void askHostStartEarly(host);
    const store = new AppStore(host, fakeFrame("/requirements"));
    store.start();
    expect(store.getSnapshot().ready).toBe(false);
    answerState(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getSnapshot()).toMatchObject({ ready: true, nav: { projectId: 10001, tab: "requirements" } });
    expect(asked).toBe(1);
  });

  it("leaves the page-load answer to the next store when React throws a first render away before the store starts", async () => {
    const { host, stateAsks } = fakeHost({ state: "10000-baselines-3" });
    await askHostStartEarly(host);
    new AppStore(host, fakeFrame("/requirements"));
    const store = new AppStore(host, fakeFrame("/requirements"));
    expect(store.getSnapshot()).toMatchObject({ ready: true, nav: { projectId: 10000, tab: "baselines", baselineId: 3 } });
    store.start();
    expect(stateAsks()).toBe(1);
  });
});
