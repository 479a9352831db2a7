import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { USER_ADDRESS } from "../common/firstReads.js";
import { installReauthentication, type User, useTokenRefresh } from "./api/auth.js";
import { api } from "./api/client.js";
import { ErrorBoundary } from "./components/ErrorBoundary/ErrorBoundary.js";
import { startErrorReporting } from "./errorReporting.js";
import { getHost } from "./host/index.js";
import { type IssueContext, issueContextOf } from "./pages/IssuePanel/issueContext.js";
import { IssuePanel, type LinkedRequirements, LOAD_ERROR, linkedRequirementsOf } from "./pages/IssuePanel/IssuePanel.js";
import { loadIssueRequirements } from "./pages/IssuePanel/issueRequirements.js";
import "./pages/IssuePanel/panel.css";
import { locationOfPath, signIn } from "./pages/Authenticate/signIn.js";

/**
 * The issue panel's own light entry: it performs its own sign-in hand-off so that opening an
 * issue never loads the main app (no tree, matrix, baselines, Atlaskit or query cache).
 */
startErrorReporting();
const host = getHost();
installReauthentication(host);

type Ready = { issue: IssueContext; jiraBaseUrl: string; first: LinkedRequirements };

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
  // The panel shows a failed load of its requirements itself (IssuePanel); any other failure is start()'s.
  const first = linkedRequirementsOf(issue.then(loadIssueRequirements));
  const [known, user] = await Promise.all([issue, api.get<User>(USER_ADDRESS)]);
  return { issue: known, jiraBaseUrl: user.atlassian_base_url, first: await first };
}

function Panel({ started }: { started: Ready | "failed" }) {
  // An issue can stay open all day: the panel keeps its token fresh as the main app does (spec section 6).
  useTokenRefresh();
  useEffect(() => host.resize());
  if (started === "failed")
    return (
      <p className="rm-panel" role="alert">
        {LOAD_ERROR}
      </p>
    );
  return <IssuePanel host={host} issue={started.issue} jiraBaseUrl={started.jiraBaseUrl} first={started.first} />;
}

const root = document.getElementById("root");
if (!root) throw new Error("panel.html has no #root");
const render = (started: Ready | "failed") =>
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <Panel started={started} />
      </ErrorBoundary>
    </StrictMode>,
  );

// Started as the page loads (issue 39): the sign-in, the user and the linked requirements are asked
// for at once, and the panel renders once, with its requirements; panel.html says "Loading…" until then.
start().then(
  (started) => {
    if (started !== "missing-license") render(started);
  },
  (error: unknown) => {
    console.error("The issue panel could not start", error);
    render("failed");
  },
);
