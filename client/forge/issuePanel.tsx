import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { LINK_REQUIREMENTS_DIALOG_TITLE } from "../../common/requirementLink.js";
import type { User } from "../../common/schemas/auth.js";
import { api, onUnauthorized, setApiOrigin, tokenStore } from "../api/client.js";
import { ErrorBoundary } from "../components/ErrorBoundary/ErrorBoundary.js";
import { type ForgeBridge, ForgeSignInError, forgeHost, signInThroughForge } from "../host/forgeHost.js";
import { HostProvider } from "../host/index.js";
import { type IssueContext, issueContextOf } from "../pages/IssuePanel/issueContext.js";
import { IssuePanel, LINK_REQUIREMENTS_DIALOG, LOAD_ERROR } from "../pages/IssuePanel/IssuePanel.js";
import { LICENSE_MESSAGE } from "../pages/MissingLicense/MissingLicensePage.js";
import "../pages/IssuePanel/panel.css";

/**
 * The Forge-native issue panel (Custom UI `jira:issuePanel`, forge/jira/manifest.yml): the same
 * panel the Connect web panel shows, signed in through the remote instead of a Connect JWT. Its
 * Edit opens this same resource as a Forge modal, which shows the link dialog with its own buttons.
 */
const bridge: Promise<ForgeBridge> = import("@forge/bridge");
const host = forgeHost(bridge);

const LinkRequirementsDialog = lazy(() =>
  import("../pages/LinkRequirementsDialog/LinkRequirementsDialog.js").then((module) => ({ default: module.LinkRequirementsDialog })),
);

/** The link dialog's requirement picker searches through TanStack Query, as on the add-on's own pages. */
const dialogQueries = new QueryClient({ defaultOptions: { queries: { retry: false } } });

async function signIn(): Promise<void> {
  const { token, base_url } = await signInThroughForge(bridge);
  tokenStore.set(token, "jira");
  setApiOrigin(base_url);
}

type Ready = { view: "panel"; issue: IssueContext; jiraBaseUrl: string } | { view: "dialog" };
type State = Ready | "failed" | "license" | undefined;

async function start(): Promise<Ready> {
  await signIn();
  onUnauthorized(() => signIn().then(() => true));
  if ((await host.dialogContext())?.dialog === LINK_REQUIREMENTS_DIALOG.key) return { view: "dialog" };
  const [issue, user] = await Promise.all([issueContextOf("", () => host.getContext()), api.get<User>("/api/user")]);
  return { view: "panel", issue, jiraBaseUrl: user.atlassian_base_url };
}

const isLicenseRefusal = (error: unknown) =>
  error instanceof ForgeSignInError && (error.body as { Result?: unknown } | undefined)?.Result === "license";

function ForgePanel() {
  const [state, setState] = useState<State>();
  useEffect(() => {
    start().then(setState, (error: unknown) => {
      console.error("The Forge issue panel could not start", error);
      setState(isLicenseRefusal(error) ? "license" : "failed");
    });
  }, []);
  if (state === undefined) return <p className="rm-panel rm-muted">Loading…</p>;
  if (state === "failed")
    return (
      <p className="rm-panel" role="alert">
        {LOAD_ERROR}
      </p>
    );
  if (state === "license")
    return (
      <p className="rm-panel" role="alert">
        {LICENSE_MESSAGE}
      </p>
    );
  if (state.view === "panel") return <IssuePanel host={host} issue={state.issue} jiraBaseUrl={state.jiraBaseUrl} />;
  return (
    <HostProvider host={host}>
      <h2 className="rm-panel rm-dialog-title">{LINK_REQUIREMENTS_DIALOG_TITLE}</h2>
      <QueryClientProvider client={dialogQueries}>
        <Suspense fallback={<p className="rm-panel rm-muted">Loading…</p>}>
          <LinkRequirementsDialog />
        </Suspense>
      </QueryClientProvider>
      <footer className="rm-panel">
        <button type="button" className="rm-button" onClick={() => void host.submitDialog()}>
          Save
        </button>{" "}
        <button type="button" className="rm-button" onClick={() => host.closeDialog()}>
          Cancel
        </button>
      </footer>
    </HostProvider>
  );
}

const root = document.getElementById("root");
if (!root) throw new Error("client/forge/index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <ForgePanel />
    </ErrorBoundary>
  </StrictMode>,
);
