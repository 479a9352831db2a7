import { FORGE_EXCHANGE_PATH, type ForgeExchangeResponse } from "../../common/forge.js";
import { HostRequestError } from "./connectHost.js";
import type { Host, HostContext, HostProduct, HostRequestOptions } from "./types.js";

/**
 * The slice of @forge/bridge rmCloud uses. The package reaches for the Custom UI bridge
 * (`window.__bridge`) as soon as it is imported, so it is loaded only on pages Forge runs.
 */
export type ForgeBridge = Pick<
  typeof import("@forge/bridge"),
  "requestJira" | "requestConfluence" | "view" | "router" | "Modal" | "showFlag" | "invokeRemote"
>;

/** Whether this page runs inside Forge (Custom UI) rather than a Connect iframe. */
export function runsInForge(): boolean {
  return typeof (globalThis as { __bridge?: { callBridge?: unknown } }).__bridge?.callBridge === "function";
}

type ForgeExtension = {
  type?: string;
  issue?: { id?: string | number; key?: string };
  project?: { id?: string | number; key?: string };
  content?: { id?: string | number };
  /** A macro's saved configuration (its parameters), in a macro's editor. */
  config?: Record<string, unknown>;
  /** Set on a modal: what openDialog passed as its context. */
  modal?: { dialog?: string; customData?: unknown };
};

function toContext(extension: ForgeExtension | undefined): HostContext {
  const id = (value: string | number | undefined) => (value === undefined ? undefined : String(value));
  return {
    product: extension?.type?.startsWith("confluence:") ? "confluence" : "jira",
    projectId: id(extension?.project?.id),
    issueId: id(extension?.issue?.id),
    contentId: id(extension?.content?.id),
  };
}

/** Connect dialogs are sized in percent of the window; Forge modals by name. */
function modalSize(width: string): "small" | "medium" | "large" | "xlarge" {
  const percent = Number.parseInt(width, 10);
  if (!width.endsWith("%") || Number.isNaN(percent)) return "large";
  if (percent >= 90) return "xlarge";
  if (percent >= 60) return "large";
  return percent >= 40 ? "medium" : "small";
}

/** A Forge page signs in through the remote, not with a Connect JWT (docs/decisions.md, Connect on Forge). */
export class ForgeSignInError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`rmCloud's Forge sign-in answered ${status}`);
  }
}

/**
 * Trades this Forge invocation for rmCloud's app token: invokeRemote carries a Forge invocation
 * token our server verifies (server/connect/forgeRemote.ts) and answers with our token and its URL.
 */
export async function signInThroughForge(bridge: Promise<Pick<ForgeBridge, "invokeRemote">>): Promise<ForgeExchangeResponse> {
  const { invokeRemote } = await bridge;
  const response = await invokeRemote({ path: FORGE_EXCHANGE_PATH, method: "POST", body: {} });
  const body = response.body as Partial<ForgeExchangeResponse> | undefined;
  if (response.status !== 200 || typeof body?.token !== "string" || typeof body.base_url !== "string") {
    throw new ForgeSignInError(response.status, response.body);
  }
  return { token: body.token, base_url: body.base_url };
}

/** The history object view.createHistory answers (the `history` v4 API): the module's own path in the host URL. */
type ForgeHistory = {
  location: { pathname: string };
  push(path: string): void;
  replace(path: string): void;
  listen(listener: (location: { pathname: string }, action: string) => void): () => void;
};

export type ForgeHost = Host & {
  /**
   * Forge modals have no host buttons: a dialog page rendered in one shows its own and calls this,
   * which runs what onDialogSubmit registered and closes the modal when that answers true.
   */
  submitDialog(): Promise<void>;
  /** What openDialog passed to this page, when it runs in a modal. */
  dialogContext(): Promise<ForgeExtension["modal"]>;
};

/** Host over the Forge bridge: product REST as the user, the view's context, the router, modals and flags. */
export function forgeHost(bridge: Promise<ForgeBridge> = import("@forge/bridge")): ForgeHost {
  const later = (action: (forge: ForgeBridge) => unknown) => {
    void bridge.then(action);
  };
  let extension: Promise<ForgeExtension> | undefined;
  const extensionOf = () => {
    extension ??= bridge.then(async (forge) => ((await forge.view.getContext()).extension ?? {}) as ForgeExtension);
    return extension;
  };
  const productOf = async (): Promise<HostProduct> => toContext(await extensionOf()).product;
  let submitListener: (() => Promise<boolean> | boolean) | undefined;
  let history: Promise<ForgeHistory> | undefined;
  const historyOf = () => {
    history ??= bridge.then(async (forge): Promise<ForgeHistory> => forge.view.createHistory());
    return history;
  };
  // The spec's state string is the path of the module's own history (Forge keeps it in the host URL).
  const stateOf = (pathname: string | undefined) => decodeURIComponent((pathname ?? "").replace(/^\//, "")) || undefined;
  const pathOf = (state: string) => `/${encodeURIComponent(state)}`;

  return {
    getContextToken: () => Promise.reject(new Error("Forge pages sign in through the remote (signInThroughForge), not with a Connect JWT")),
    getContext: () => extensionOf().then(toContext),
    async request<T>(options: HostRequestOptions): Promise<T> {
      const forge = await bridge;
      const requestProduct = (await productOf()) === "confluence" ? forge.requestConfluence : forge.requestJira;
      const response = await requestProduct(options.url, {
        method: options.type ?? "GET",
        headers: {
          Accept: "application/json",
          ...(options.data === undefined ? {} : { "Content-Type": options.contentType ?? "application/json" }),
        },
        body: options.data,
      });
      if (!response.ok) throw new HostRequestError(response.status, options.url);
      const text = await response.text();
      return (text ? JSON.parse(text) : undefined) as T;
    },
    history: {
      getState: () => historyOf().then((h) => stateOf(h.location.pathname)),
      pushState: (state) => void historyOf().then((h) => h.push(pathOf(state))),
      replaceState: (state) => void historyOf().then((h) => h.replace(pathOf(state))),
      onPopState(listener) {
        let unlisten: (() => void) | undefined;
        let active = true;
        void historyOf().then((h) => {
          if (!active) return;
          unlisten = h.listen((location, action) => {
            if (action === "POP") listener(stateOf(location.pathname));
          });
        });
        return () => {
          active = false;
          unlisten?.();
        };
      },
    },
    openDialog(options) {
      const closeListeners: Array<() => void> = [];
      later((forge) =>
        new forge.Modal({
          size: modalSize(options.width),
          context: { dialog: options.key, customData: options.customData },
          onClose: () => {
            for (const listener of closeListeners) listener();
          },
        }).open(),
      );
      return { onClose: (listener) => closeListeners.push(listener) };
    },
    onDialogSubmit(listener) {
      submitListener = listener;
    },
    async submitDialog() {
      if (submitListener && (await submitListener())) (await bridge).view.close();
    },
    dialogContext: () => extensionOf().then((data) => data.modal),
    closeDialog: () => later((forge) => forge.view.close()),
    showFlag: (flag) =>
      later((forge) =>
        forge.showFlag({ id: `rmcloud-${Date.now()}`, title: flag.title, description: flag.body, type: flag.type, isAutoDismiss: true }),
      ),
    // Forge sizes Custom UI frames to their content by itself.
    resize: () => undefined,
    sizeToParent: () => undefined,
    navigateToIssue: (issueKey) => later((forge) => forge.router.navigate({ target: "issue", issueKey })),
    // A Forge macro's configuration plays the Connect macro's parameters: view.submit stores it and closes the editor.
    getMacroData: () => extensionOf().then((data) => data.config ?? {}),
    saveMacro: (parameters) => later((forge) => forge.view.submit(parameters)),
    closeMacroEditor: () => undefined,
  };
}
