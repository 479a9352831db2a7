import { afterEach, describe, expect, it, vi } from "vitest";
import { type ApBridge, connectHost, HostRequestError, stateString, waitForBridge } from "./connectHost.js";

function fakeBridge(overrides: Partial<ApBridge> = {}) {
  const calls: string[] = [];
  let popCallback: ((event: { newState?: unknown }) => void) | undefined;
  let submitCallback: (() => void) | undefined;
  const bridge: ApBridge = {
    context: {
      getToken: (callback) => {
        callback?.("context-jwt");
        return undefined;
      },
      getContext: () => Promise.resolve({ jira: { project: { id: 10000 }, issue: { id: "10100" } } }),
    },
    request: async (options) => ({ body: JSON.stringify({ url: options.url }) }),
    history: {
      getState: () => "#!10000-requirements-5",
      pushState: (state) => calls.push(`push ${state}`),
      replaceState: (state) => calls.push(`replace ${state}`),
      popState: (callback) => {
        popCallback = callback;
      },
    },
    dialog: {
      create: (options) => {
        calls.push(`dialog ${options.key}`);
        return { on: (_event, callback) => callback() };
      },
      close: () => calls.push("close dialog"),
      disableCloseOnSubmit: () => calls.push("keep dialog open on submit"),
    },
    events: {
      on: (event, callback) => {
        if (event === "dialog.submit") submitCallback = callback;
      },
    },
    flag: { create: (options) => calls.push(`flag ${options.type} ${options.title} ${options.close}`) },
    resize: () => calls.push("resize"),
    sizeToParent: () => calls.push("sizeToParent"),
    navigator: { go: (target, context) => calls.push(`go ${target} ${JSON.stringify(context)}`) },
    ...overrides,
  };
  return { bridge, calls, pop: (state: unknown) => popCallback?.({ newState: state }), submit: () => submitCallback?.() };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe("the host bridge", () => {
  it("answers tokens and context whether the bridge uses callbacks or promises", async () => {
    const { bridge } = fakeBridge();
    const host = connectHost(Promise.resolve(bridge));
    await expect(host.getContextToken()).resolves.toBe("context-jwt");
    await expect(host.getContext()).resolves.toEqual({ product: "jira", projectId: "10000", issueId: "10100", contentId: undefined });
  });

  it("parses the JSON of host REST answers and reports failures with their status", async () => {
    const { bridge } = fakeBridge();
    const host = connectHost(Promise.resolve(bridge));
    await expect(host.request({ url: "/rest/api/3/project/search" })).resolves.toEqual({ url: "/rest/api/3/project/search" });
    const failing = connectHost(
      Promise.resolve(fakeBridge({ request: () => Promise.reject({ err: "Not Found", xhr: { status: 404 } }) }).bridge),
    );
    const error = await failing.request({ url: "/rest/api/3/issue/X-1" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostRequestError);
    expect(error).toMatchObject({ status: 404 });
  });

  it("keeps the navigation state in the host history and hears back and forward", async () => {
    const { bridge, calls, pop } = fakeBridge();
    const host = connectHost(Promise.resolve(bridge));
    await expect(host.history.getState()).resolves.toBe("10000-requirements-5");
    const heard: Array<string | undefined> = [];
    const stop = host.history.onPopState((state) => heard.push(state));
    host.history.pushState("10000-folder-3");
    await flush();
    pop("10000-traceability");
    pop("");
    stop();
    pop("10000-baselines");
    expect(heard).toEqual(["10000-traceability", undefined]);
    expect(calls).toEqual(["push 10000-folder-3"]);
  });

  it("closes a dialog only when its submit handler says so", async () => {
    const { bridge, calls, submit } = fakeBridge();
    const host = connectHost(Promise.resolve(bridge));
    let saved = false;
    host.onDialogSubmit(async () => saved);
    await flush();
    submit();
    await flush();
    saved = true;
    submit();
    await flush();
    expect(calls).toEqual(["keep dialog open on submit", "close dialog"]);
  });

  it("opens dialogs, flags, issues and sizes the frame once more after a second", async () => {
    vi.useFakeTimers();
    const { bridge, calls } = fakeBridge();
    const host = connectHost(Promise.resolve(bridge));
    const closed: string[] = [];
    host.openDialog({ key: "link-requirements-dialog", width: "80%", height: "60%", chrome: true }).onClose(() => closed.push("closed"));
    host.showFlag({ title: "Saved", body: "", type: "success" });
    host.navigateToIssue("DEMO-1");
    host.sizeToParent();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["dialog link-requirements-dialog", "flag success Saved auto", 'go issue {"issueKey":"DEMO-1"}', "sizeToParent"]);
    expect(closed).toEqual(["closed"]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.at(-1)).toBe("sizeToParent");
    expect(calls).toHaveLength(5);
  });

  it("waits for the bridge script, looking again every 250 ms", async () => {
    vi.useFakeTimers();
    const { bridge } = fakeBridge();
    let loaded: ApBridge | undefined;
    let found = false;
    void waitForBridge(() => loaded).then(() => {
      found = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(found).toBe(false);
    loaded = bridge;
    await vi.advanceTimersByTimeAsync(250);
    expect(found).toBe(true);
  });

  it("takes the bridge as soon as its script has loaded, without waiting for the next retry", async () => {
    vi.useFakeTimers();
    const { bridge } = fakeBridge();
    const script = new EventTarget();
    let loaded: ApBridge | undefined;
    let found = false;
    void waitForBridge(
      () => loaded,
      () => script,
    ).then(() => {
      found = true;
    });
    await vi.advanceTimersByTimeAsync(300);
    loaded = bridge;
    script.dispatchEvent(new Event("load"));
    await vi.advanceTimersByTimeAsync(0);
    expect(found).toBe(true);
  });

  it("reads the state string however the host hands it back", () => {
    expect(stateString("#!10000-comparison")).toBe("10000-comparison");
    expect(stateString("!10000-comparison")).toBe("10000-comparison");
    expect(stateString("10000-comparison")).toBe("10000-comparison");
    expect(stateString("")).toBeUndefined();
    expect(stateString(undefined)).toBeUndefined();
  });
});
