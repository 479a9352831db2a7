import "@atlaskit/css-reset";
import "virtual:atlaskit-theme.css";
import { createRoot } from "react-dom/client";
import { installReauthentication } from "./api/auth.js";
import { createQueryClient } from "./api/queryClient.js";
import { App } from "./App.js";
import { ErrorBoundary } from "./components/ErrorBoundary/ErrorBoundary.js";
import { Toasts } from "./components/Flags/toasts.js";
import { startErrorReporting } from "./errorReporting.js";
import { startFirstScreen } from "./firstScreen.js";
import { getHost } from "./host/index.js";

startErrorReporting();
const host = getHost();
installReauthentication(host);
const toasts = new Toasts();
const queryClient = createQueryClient(toasts);
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
// The router starts where the sign-in leads (client/firstScreen.ts). No <StrictMode>: Atlaskit's
// Portal appends its container during render and removes it in an effect cleanup, so StrictMode's
// simulated unmount leaves every modal and flag in a detached node.
void startFirstScreen(host, queryClient).then(() =>
  createRoot(root).render(
    <ErrorBoundary>
      <App host={host} queryClient={queryClient} toasts={toasts} />
    </ErrorBoundary>,
  ),
);
