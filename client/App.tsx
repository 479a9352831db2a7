import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, lazy, Suspense } from "react";
import Spinner from "@atlaskit/spinner";
import { useTokenRefresh } from "./api/auth.js";
import { FlagsProvider } from "./components/Flags/Flags.js";
import { MainLayout } from "./components/MainLayout/MainLayout.js";
import { HostProvider } from "./host/index.js";
import type { Host } from "./host/types.js";
import { AuthenticatePage } from "./pages/Authenticate/AuthenticatePage.js";
import { GettingStartedPage } from "./pages/GettingStarted/GettingStartedPage.js";
import { MAINTENANCE_MODE, MaintenanceNotice } from "./pages/Maintenance/MaintenanceNotice.js";
import { MissingLicensePage } from "./pages/MissingLicense/MissingLicensePage.js";
import { AppStateProvider } from "./state/AppState.js";
import { usePathname } from "./state/location.js";

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

function MainPage() {
  return (
    <AppStateProvider>
      <MainLayout />
    </AppStateProvider>
  );
}

/** Screens that need a signed-in user: they keep the app token fresh. */
function SignedIn({ page: Page }: { page: ComponentType }) {
  useTokenRefresh();
  return (
    <Suspense fallback={<Spinner size="large" label="Loading" />}>
      <Page />
    </Suspense>
  );
}

/** Pages outside the main screen load on demand, so the main screen's bundle stays lean. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

/** The main entry's routes (spec section 2); the issue panel has its own entry, panel.tsx. */
const SIGNED_IN_PAGES: Record<string, ComponentType> = {
  "/requirements": MainPage,
  "/traceability-matrix": MainPage,
  "/baselines": MainPage,
  "/configuration": lazyPage(() => import("./pages/Configuration/ConfigurationPage.js"), "ConfigurationPage"),
  "/link-requirements-dialog": lazyPage(
    () => import("./pages/LinkRequirementsDialog/LinkRequirementsDialog.js"),
    "LinkRequirementsDialog",
  ),
  "/getting-started": GettingStartedPage,
  "/confluence-linked-requirements-macro": lazyPage(
    () => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacro.js"),
    "LinkedRequirementsMacro",
  ),
  "/confluence-linked-requirements-macro-editor": lazyPage(
    () => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacroEditor.js"),
    "LinkedRequirementsMacroEditor",
  ),
  "/confluence-insert-requirements-macro": lazyPage(
    () => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacro.js"),
    "InsertRequirementsMacro",
  ),
  "/confluence-insert-requirements-macro-editor": lazyPage(
    () => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacroEditor.js"),
    "InsertRequirementsMacroEditor",
  ),
};

function Routes() {
  const pathname = usePathname().replace(/(.)\/$/, "$1");
  if (MAINTENANCE_MODE) return <MaintenanceNotice />;
  if (pathname.startsWith("/authenticate/")) return <AuthenticatePage />;
  if (pathname === "/missing-license") return <MissingLicensePage />;
  const page = SIGNED_IN_PAGES[pathname];
  if (!page) return <p>This page is not available.</p>;
  return <SignedIn page={page} />;
}

export function App({ host, queryClient }: { host?: Host; queryClient: QueryClient }) {
  return (
    <HostProvider host={host}>
      <QueryClientProvider client={queryClient}>
        <FlagsProvider>
          <Routes />
        </FlagsProvider>
      </QueryClientProvider>
    </HostProvider>
  );
}
