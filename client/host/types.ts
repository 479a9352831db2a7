/**
 * Everything the SPA asks of its host (Jira or Confluence), behind one interface. The Connect
 * implementation talks to the AP bridge; a Forge-hosted build swaps in another behind the same shape.
 */
export type HostProduct = "jira" | "confluence";

export type HostContext = {
  product: HostProduct;
  /** Jira project id from the iframe context, if the module is a project page. */
  projectId?: string;
  issueId?: string;
  contentId?: string;
};

export type HostRequestOptions = {
  url: string;
  type?: "GET" | "POST" | "PUT" | "DELETE";
  data?: string;
  contentType?: string;
};

export type HostFlag = { title: string; body: string; type: "success" | "error" | "info" | "warning" };

export interface Host {
  /** A Connect JWT with `context-qsh` for the token exchange. */
  getContextToken(): Promise<string>;
  getContext(): Promise<HostContext>;
  /** A REST call to the host product as the signed-in user; resolves with the parsed JSON body. */
  request<T>(options: HostRequestOptions): Promise<T>;
  /** The host's history: the main screen keeps its navigation state there (spec section 2). */
  history: {
    getState(): Promise<string | undefined>;
    pushState(state: string): void;
    replaceState(state: string): void;
    onPopState(listener: (state: string | undefined) => void): () => void;
  };
  openDialog(options: { key: string; width: string; height: string; chrome?: boolean; customData?: unknown }): {
    onClose(listener: () => void): void;
  };
  onDialogSubmit(listener: () => Promise<boolean> | boolean): void;
  closeDialog(): void;
  showFlag(flag: HostFlag): void;
  resize(): void;
  sizeToParent(): void;
  navigateToIssue(issueKey: string): void;
  /** Confluence's macro editor (only in an editor iframe): the macro's saved parameters, or {} for a new macro. */
  getMacroData(): Promise<Record<string, unknown>>;
  /** Stores the parameters on the macro being edited; Confluence saves them with the page. */
  saveMacro(parameters: Record<string, string>): void;
  closeMacroEditor(): void;
}
