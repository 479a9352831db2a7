import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { USER_ADDRESS } from "../common/firstReads.js";
import { installReauthentication, type User, useTokenRefresh } from "./api/auth.js";
import { api } from "./api/client.js";
import { ErrorBoundary } from "./components/ErrorBoundary/ErrorBoundary.js";
import { startErrorReporting } from "./errorReporting.js";
import { getHost } from "./host/index.js";
import { type IssueContext, issueContextOf } from "./pages/IssuePanel/issueContext.js";
import { IssuePanel, LOAD_ERROR } from "./pages/IssuePanel/IssuePanel.js";
import { type LinkedToIssue, loadIssueRequirements } from "./pages/IssuePanel/issueRequirements.js";
import "./pages/IssuePanel/panel.css";
import { locationOfPath, signIn } from "./pages/Authenticate/signIn.js";

/**
 * The issue panel's own light entry: it performs its own sign-in hand-off so that opening an
 * issue never loads the main app (no tree, matrix, baselines, Atlaskit or query cache).
 */
startErrorReporting();
const host = getHost();
installReauthentication(host);

type Ready = { issue: IssueContext; jiraBaseUrl: string; requirements: Promise<LinkedToIssue[]> };

async function start(): Promise<Ready | "missing-license"> {
  const { pathname, search } = window.location;
  const location = locationOfPath(pathname);
  if (location) {
    const url = await signIn(location, { pathname, search }, host);
    if (url.startsWith("/missing-license")) {
      window.location.replace(url);
      return "missing-license";
    }
    window.history.replaceState(null, "", url);
  }
  const issue = issueContextOf(window.location.search, () => host.getContext());
  const requirements = issue.then(loadIssueRequirements);
  // The panel shows a failed load itself (IssuePanel); a failure before then is start()'s.
  requirements.catch(() => undefined);
  const [known, user] = await Promise.all([issue, api.get<User>(USER_ADDRESS)]);
  return { issue: known, jiraBaseUrl: user.atlassian_base_url, requirements };
}

// Started as the page loads, not in an effect (issue 39): the sign-in, the user and the linked
// requirements are asked for while React renders.
const starting = start();

function Panel() {
  const [ready, setReady] = useState<Ready | "failed" | undefined>();
  // An issue can stay open all day: the panel keeps its token fresh as the main app does (spec section 6).
  useTokenRefresh();
  useEffect(() => {
    starting.then(
      (result) => {
        if (result !== "missing-license") setReady(result);
      },
      (error: unknown) => {
        console.error("The issue panel could not start", error);
        setReady("failed");
      },
    );
  }, []);
  useEffect(() => host.resize());
  if (ready === undefined) return <p className="rm-panel rm-muted">Loading…</p>;
  if (ready === "failed")
    return (
      <p className="rm-panel" role="alert">
        {LOAD_ERROR}
      </p>
    );
  return <IssuePanel host={host} issue={ready.issue} jiraBaseUrl={ready.jiraBaseUrl} firstRequirements={ready.requirements} />;
}

const root = document.getElementById("root");
if (!root) throw new Error("panel.html has no #root");
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <Panel />
    </ErrorBoundary>
  </StrictMode>,
);
