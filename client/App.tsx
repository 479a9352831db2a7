import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Suspense } from "react";
import { BrowserRouter, useRoutes } from "react-router-dom";
import { FlagsProvider } from "./components/Flags/Flags.js";
import type { Toasts } from "./components/Flags/toasts.js";
import { lazyNamed } from "./components/Lazy/lazyNamed.js";
import { HostProvider } from "./host/index.js";
import type { Host } from "./host/types.js";
import { MAINTENANCE_MODE } from "./pages/Maintenance/maintenanceMode.js";
import { MAIN_ROUTES } from "./routes.js";

const MaintenanceNotice = lazyNamed(() => import("./pages/Maintenance/MaintenanceNotice.js"), "MaintenanceNotice");

/**
 * The iframe's own path picks the screen. The iframe keeps no history entries of its own: every
 * in-page move replaces its location, and the host's history holds the user's places (AppStore).
 */
function Screens() {
  const screen = useRoutes(MAIN_ROUTES);
  if (MAINTENANCE_MODE) {
    return (
      <Suspense fallback={null}>
        <MaintenanceNotice />
      </Suspense>
    );
  }
  return screen;
}

/** `toasts` is the one the query client reports failed loads and changes to (client/api/queryClient.ts). */
export function App({ host, queryClient, toasts }: { host?: Host; queryClient: QueryClient; toasts: Toasts }) {
  return (
    <HostProvider host={host}>
      <QueryClientProvider client={queryClient}>
        <FlagsProvider toasts={toasts}>
          <BrowserRouter>
            <Screens />
          </BrowserRouter>
        </FlagsProvider>
      </QueryClientProvider>
    </HostProvider>
  );
}
