import "@atlaskit/css-reset";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { installReauthentication } from "./api/auth.js";
import { App, createQueryClient } from "./App.js";
import { getHost } from "./host/index.js";

const host = getHost();
installReauthentication(host);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <App host={host} queryClient={createQueryClient()} />
  </StrictMode>,
);
