import type { Host, HostContext, HostRequestOptions } from "./types.js";

/** The slice of Atlassian Connect's iframe API (all.js, `window.AP`) that rmCloud uses, as Jira Cloud offers it. */
type Callback<T> = (value: T) => void;
type MaybeAsync<T> = Promise<T> | T | undefined;

export type ApBridge = {
  context: {
    getToken(callback?: Callback<string>): MaybeAsync<string>;
    getContext(callback?: Callback<ApContext>): MaybeAsync<ApContext>;
  };
  request(options: HostRequestOptions & { success?: Callback<string>; error?: (...args: unknown[]) => void }): MaybeAsync<{
    body: string;
    xhr?: { status?: number };
  }>;
  history: {
    getState(type?: string, callback?: Callback<unknown>): MaybeAsync<unknown>;
    pushState(state: string): void;
    replaceState(state: string): void;
    popState(callback: (event: { newState?: unknown; state?: unknown }) => void): void;
  };
  dialog: {
    create(options: { key: string; width: string; height: string; chrome?: boolean; customData?: unknown }): {
      on(event: "close", callback: () => void): void;
    };
    close(): void;
    disableCloseOnSubmit?(): void;
  };
  events: { on(event: string, callback: () => void): void };
  flag: { create(options: { title: string; body: string; type: string; close: "auto" | "manual" }): unknown };
  resize(): void;
  sizeToParent(): void;
  navigator: { go(target: string, context: Record<string, unknown>): void };
  confluence?: {
    getMacroData(callback?: Callback<Record<string, unknown> | undefined>): MaybeAsync<Record<string, unknown> | undefined>;
    saveMacro(parameters: Record<string, string>, body?: string): void;
    closeMacroEditor(): void;
  };
};

type ApContext = {
  jira?: { project?: { id?: string | number }; issue?: { id?: string | number } };
  confluence?: { content?: { id?: string | number } };
};

export class HostRequestError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly url: string,
  ) {
    super(`The host answered ${status ?? "an error"} for ${url}`);
  }
}

/** Spec section 9: the bridge script loads asynchronously; look for it again every 250 ms. */
export const BRIDGE_RETRY_MS = 250;
/** The bridge script host-loader.js adds to the page. */
const BRIDGE_SCRIPT = 'script[src$="/atlassian-connect/all.js"]';
/** Spec section 9: the host may lay the iframe out late; size it to the parent once more after 1000 ms. */
export const SIZE_TO_PARENT_FALLBACK_MS = 1000;

/**
 * The bridge as soon as its script has run (its load event), so the first screen's host calls do not
 * wait for the next retry (issue 39); the 250 ms retry stays for a script that is not on the page yet.
 */
export function waitForBridge(
  lookup: () => ApBridge | undefined = () => (window as { AP?: ApBridge }).AP,
  script: () => EventTarget | null | undefined = () => globalThis.document?.querySelector(BRIDGE_SCRIPT),
): Promise<ApBridge> {
  return new Promise((resolve) => {
    const found = () => {
      const bridge = lookup();
      if (bridge) resolve(bridge);
      return bridge !== undefined;
    };
    if (found()) return;
    script()?.addEventListener("load", found, { once: true });
    const retry = () => {
      if (!found()) setTimeout(retry, BRIDGE_RETRY_MS);
    };
    setTimeout(retry, BRIDGE_RETRY_MS);
  });
}

/** Connect calls answer through a callback in older hosts and a promise in newer ones: accept both. */
function settle<T>(invoke: (callback: Callback<T>) => MaybeAsync<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (value: T) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    const returned: unknown = invoke(finish);
    if (isThenable<T>(returned)) returned.then(finish, reject);
    else if (returned !== undefined) finish(returned as T);
  });
}

function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === "function";
}

/** The host history holds the spec's state string; some hosts hand it back as `#!state` or `!state`. */
export function stateString(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw === "") return undefined;
  return raw.replace(/^#?!?/, "") || undefined;
}

function toContext(raw: ApContext | undefined): HostContext {
  const id = (value: string | number | undefined) => (value === undefined ? undefined : String(value));
  return {
    product: raw?.confluence ? "confluence" : "jira",
    projectId: id(raw?.jira?.project?.id),
    issueId: id(raw?.jira?.issue?.id),
    contentId: id(raw?.confluence?.content?.id),
  };
}

/** Host over the Connect bridge. Every call waits for `window.AP`; fire-and-forget calls queue behind it. */
export function connectHost(bridge: Promise<ApBridge> = waitForBridge()): Host {
  const later = (action: (ap: ApBridge) => void) => {
    void bridge.then(action);
  };
  return {
    getContextToken: () => bridge.then((ap) => settle<string>((callback) => ap.context.getToken(callback))),
    getContext: () => bridge.then((ap) => settle<ApContext>((callback) => ap.context.getContext(callback)).then(toContext)),
    async request<T>(options: HostRequestOptions): Promise<T> {
      const ap = await bridge;
      const response = await new Promise<{ body: string }>((resolve, reject) => {
        const fail = (...args: unknown[]) => {
          const xhr = args.find((arg): arg is { status?: number } => !!arg && typeof arg === "object" && "status" in arg);
          const nested = args[0] as { xhr?: { status?: number } } | undefined;
          reject(new HostRequestError(xhr?.status ?? nested?.xhr?.status, options.url));
        };
        const returned: unknown = ap.request({ ...options, success: (body) => resolve({ body }), error: fail });
        if (isThenable<{ body: string }>(returned)) returned.then(resolve, fail);
      });
      return (response.body ? JSON.parse(response.body) : undefined) as T;
    },
    history: {
      getState: () => bridge.then((ap) => settle<unknown>((callback) => ap.history.getState("hash", callback)).then(stateString)),
      pushState: (state) => later((ap) => ap.history.pushState(state)),
      replaceState: (state) => later((ap) => ap.history.replaceState(state)),
      onPopState(listener) {
        let active = true;
        later((ap) =>
          ap.history.popState((event) => {
            if (active) listener(stateString(event?.newState ?? event?.state));
          }),
        );
        // The bridge offers no way to unregister; a closed-over flag silences the listener instead.
        return () => {
          active = false;
        };
      },
    },
    openDialog(options) {
      const closeListeners: Array<() => void> = [];
      later((ap) =>
        ap.dialog.create(options).on("close", () => {
          for (const listener of closeListeners) listener();
        }),
      );
      return { onClose: (listener) => closeListeners.push(listener) };
    },
    onDialogSubmit(listener) {
      later((ap) => {
        ap.dialog.disableCloseOnSubmit?.();
        ap.events.on("dialog.submit", () => {
          void Promise.resolve(listener()).then((close) => {
            if (close) ap.dialog.close();
          });
        });
      });
    },
    closeDialog: () => later((ap) => ap.dialog.close()),
    showFlag: (flag) => later((ap) => ap.flag.create({ ...flag, close: "auto" })),
    resize: () => later((ap) => ap.resize()),
    sizeToParent: () =>
      later((ap) => {
        ap.sizeToParent();
        setTimeout(() => ap.sizeToParent(), SIZE_TO_PARENT_FALLBACK_MS);
      }),
    navigateToIssue: (issueKey) => later((ap) => ap.navigator.go("issue", { issueKey })),
    getMacroData: () =>
      bridge.then(async (ap) => {
        const confluence = ap.confluence;
        if (!confluence) return {};
        return (await settle<Record<string, unknown> | undefined>((callback) => confluence.getMacroData(callback))) ?? {};
      }),
    saveMacro: (parameters) => later((ap) => ap.confluence?.saveMacro(parameters)),
    closeMacroEditor: () => later((ap) => ap.confluence?.closeMacroEditor()),
  };
}
