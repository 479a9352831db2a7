import { afterEach, describe, expect, it, vi } from "vitest";
import { FORGE_EXCHANGE_PATH } from "../../common/forge.js";
import { HostRequestError } from "./connectHost.js";
import { type ForgeBridge, ForgeSignInError, forgeHost, runsInForge, signInThroughForge } from "./forgeHost.js";

type Listener = (location: { pathname: string }, action: string) => void;

/** @forge/bridge as its documented API answers, recording what rmCloud asks of it. */
function fakeForge(
  extension: Record<string, unknown> = { type: "jira:issuePanel", issue: { id: "10100", key: "DEMO-1" }, project: { id: "10000" } },
) {
  const calls: unknown[] = [];
  const listeners: Listener[] = [];
  const history = {
    location: { pathname: "/10000-requirements-5" },
    push: (path: string) => calls.push(["push", path]),
    replace: (path: string) => calls.push(["replace", path]),
    listen: (listener: Listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  let closeModal: (() => void) | undefined;
  const respond = (product: string) => async (path: string, init?: RequestInit) => {
    calls.push([product, path, init?.method, init?.body ?? null]);
    if (path.includes("missing")) return new Response("{}", { status: 404 });
    return new Response(JSON.stringify({ path }), { status: 200 });
  };
  const bridge = {
    requestJira: respond("jira"),
    requestConfluence: respond("confluence"),
    view: {
      getContext: async () => ({ extension }),
      createHistory: async () => history,
      close: async () => {
        calls.push(["close"]);
      },
    },
    router: { navigate: async (location: unknown) => calls.push(["navigate", location]) },
    Modal: class {
      constructor(readonly options: { size: string; context: unknown; onClose: () => void }) {}
      async open() {
        calls.push(["modal", this.options.size, this.options.context]);
        closeModal = this.options.onClose;
      }
    },
    showFlag: (options: unknown) => {
      calls.push(["flag", options]);
      return { close: async () => undefined };
    },
    invokeRemote: async (input: unknown) => {
      calls.push(["invokeRemote", input]);
      return { status: 200, headers: {}, body: { token: "app-token", base_url: "https://rmcloud.example.com" } };
    },
  };
  return {
    bridge: bridge as unknown as ForgeBridge,
    calls,
    pop: (pathname: string) => {
      for (const listener of [...listeners]) listener({ pathname }, "POP");
    },
    closeModal: () => closeModal?.(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  delete (globalThis as { __bridge?: unknown }).__bridge;
});

describe("forgeHost", () => {
  it("reads the issue, project and product from the view's context", async () => {
    const { bridge } = fakeForge();
    expect(await forgeHost(Promise.resolve(bridge)).getContext()).toEqual({
      product: "jira",
      projectId: "10000",
      issueId: "10100",
      contentId: undefined,
    });
    const wiki = fakeForge({ type: "confluence:contentBylineItem", content: { id: 98_765 } });
    expect(await forgeHost(Promise.resolve(wiki.bridge)).getContext()).toMatchObject({ product: "confluence", contentId: "98765" });
  });

  it("calls the product's REST API as the user through requestJira (requestConfluence in Confluence) and parses the answer", async () => {
    const { bridge, calls } = fakeForge();
    const host = forgeHost(Promise.resolve(bridge));
    expect(await host.request({ url: "/rest/api/3/issue/DEMO-1" })).toEqual({ path: "/rest/api/3/issue/DEMO-1" });
    await host.request({ url: "/rest/api/3/issue/DEMO-1/comment", type: "POST", data: '{"body":"x"}' });
    expect(calls).toEqual([
      ["jira", "/rest/api/3/issue/DEMO-1", "GET", null],
      ["jira", "/rest/api/3/issue/DEMO-1/comment", "POST", '{"body":"x"}'],
    ]);
    await expect(host.request({ url: "/rest/api/3/missing" })).rejects.toEqual(new HostRequestError(404, "/rest/api/3/missing"));

    const wiki = fakeForge({ type: "confluence:contentBylineItem" });
    await forgeHost(Promise.resolve(wiki.bridge)).request({ url: "/wiki/rest/api/content/1" });
    expect(wiki.calls).toEqual([["confluence", "/wiki/rest/api/content/1", "GET", null]]);
  });

  it("keeps the navigation state in the module's history and hears the back button", async () => {
    const { bridge, calls, pop } = fakeForge();
    const host = forgeHost(Promise.resolve(bridge));
    expect(await host.history.getState()).toBe("10000-requirements-5");
    host.history.pushState("10000-folder-3");
    host.history.replaceState("10000-requirements-7");
    const states: Array<string | undefined> = [];
    const stop = host.history.onPopState((state) => states.push(state));
    await settle();
    pop("/10000-folder-3");
    stop();
    pop("/10000-requirements-9");
    expect(calls).toEqual([
      ["push", "/10000-folder-3"],
      ["replace", "/10000-requirements-7"],
    ]);
    expect(states).toEqual(["10000-folder-3"]);
  });

  it("opens a dialog as a Forge modal that hands over its data, and tells when it closes", async () => {
    const { bridge, calls, closeModal } = fakeForge();
    const host = forgeHost(Promise.resolve(bridge));
    const closed: string[] = [];
    host
      .openDialog({ key: "link-requirements-dialog", width: "80%", height: "60%", chrome: true, customData: { issueId: "10100" } })
      .onClose(() => closed.push("closed"));
    await settle();
    expect(calls).toEqual([["modal", "large", { dialog: "link-requirements-dialog", customData: { issueId: "10100" } }]]);
    closeModal();
    expect(closed).toEqual(["closed"]);
  });

  it("runs the dialog's submit from the page's own button and closes the modal only when it succeeded", async () => {
    const { bridge, calls } = fakeForge({
      type: "jira:issuePanel",
      modal: { dialog: "link-requirements-dialog", customData: { issueId: "1" } },
    });
    const host = forgeHost(Promise.resolve(bridge));
    expect(await host.dialogContext()).toEqual({ dialog: "link-requirements-dialog", customData: { issueId: "1" } });
    let succeed = false;
    host.onDialogSubmit(() => succeed);
    await host.submitDialog();
    expect(calls).toEqual([]);
    succeed = true;
    await host.submitDialog();
    expect(calls).toEqual([["close"]]);
  });

  it("shows flags, opens issues through the router, and leaves sizing to Forge", async () => {
    const { bridge, calls } = fakeForge();
    const host = forgeHost(Promise.resolve(bridge));
    host.showFlag({ title: "Saved", body: "The links were saved", type: "success" });
    host.navigateToIssue("DEMO-1");
    host.resize();
    host.sizeToParent();
    await settle();
    expect(calls).toEqual([
      ["flag", expect.objectContaining({ title: "Saved", description: "The links were saved", type: "success", isAutoDismiss: true })],
      ["navigate", { target: "issue", issueKey: "DEMO-1" }],
    ]);
  });

  it("never offers a Connect JWT", async () => {
    await expect(forgeHost(Promise.resolve(fakeForge().bridge)).getContextToken()).rejects.toThrow(/sign in through the remote/);
  });
});

describe("signInThroughForge", () => {
  it("exchanges the Forge invocation at rmCloud's exchange endpoint for the app token and the server's URL", async () => {
    const { bridge, calls } = fakeForge();
    expect(await signInThroughForge(Promise.resolve(bridge))).toEqual({ token: "app-token", base_url: "https://rmcloud.example.com" });
    expect(calls).toEqual([["invokeRemote", { path: FORGE_EXCHANGE_PATH, method: "POST", body: {} }]]);
  });

  it("fails with the server's status and body when the exchange is refused", async () => {
    const invokeRemote = async () => ({ status: 403, headers: {}, body: { Result: "license" } });
    await expect(signInThroughForge(Promise.resolve({ invokeRemote } as unknown as ForgeBridge))).rejects.toEqual(
      new ForgeSignInError(403, { Result: "license" }),
    );
  });
});

describe("where the page runs", () => {
  it("is Forge when the Custom UI bridge is present, Connect otherwise", () => {
    expect(runsInForge()).toBe(false);
    (globalThis as { __bridge?: unknown }).__bridge = { callBridge: vi.fn() };
    expect(runsInForge()).toBe(true);
  });

  it("drives the real @forge/bridge through the Custom UI bridge it is documented to call", async () => {
    const callBridge = vi.fn(async (name: string, _payload?: unknown) => {
      if (name === "getContext")
        return { extension: { type: "jira:issuePanel", issue: { id: "10100" }, project: { id: "10000" } }, locale: "en-US" };
      if (name === "invoke")
        return { success: true, payload: { status: 200, headers: {}, body: { token: "t", base_url: "https://r.example.com" } } };
      return true;
    });
    (globalThis as { __bridge?: unknown }).__bridge = { callBridge };
    const bridge = import("@forge/bridge");
    const host = forgeHost(bridge);
    expect(await host.getContext()).toMatchObject({ issueId: "10100", projectId: "10000" });
    expect(await signInThroughForge(bridge)).toEqual({ token: "t", base_url: "https://r.example.com" });
    host.navigateToIssue("DEMO-7");
    host.openDialog({ key: "link-requirements-dialog", width: "80%", height: "60%" });
    await settle();
    const calls = callBridge.mock.calls.map(([name, payload]) => [name, payload]);
    expect(calls).toContainEqual([
      "invoke",
      expect.objectContaining({ path: FORGE_EXCHANGE_PATH, method: "POST", invokeType: "ui-remote-fetch" }),
    ]);
    expect(calls).toContainEqual(["navigate", { target: "issue", issueKey: "DEMO-7", type: "same-tab" }]);
    expect(calls).toContainEqual([
      "openModal",
      expect.objectContaining({ size: "large", context: { dialog: "link-requirements-dialog", customData: undefined } }),
    ]);
  });
});
