import Spinner from "@atlaskit/spinner";
import { type ComponentType, Suspense } from "react";
import { Outlet, type RouteObject } from "react-router-dom";
import { useTokenRefresh } from "./api/auth.js";
import { RouteError } from "./components/ErrorBoundary/ErrorBoundary.js";
import { MainLayout } from "./components/MainLayout/MainLayout.js";
import { AuthenticatePage } from "./pages/Authenticate/AuthenticatePage.js";
import { AppStateProvider } from "./state/AppState.js";

/** Screens that need a signed-in user: they keep the app token fresh. */
function SignedIn() {
  useTokenRefresh();
  return (
    <Suspense fallback={<Spinner size="large" label="Loading" />}>
      <Outlet />
    </Suspense>
  );
}

/**
 * The main screen, whichever of its tabs the iframe path names: one element for the three paths, so
 * a tab change (the path follows it in place) keeps the screen, its state and its open tree.
 */
function MainScreen() {
  return (
    <AppStateProvider>
      <MainLayout />
    </AppStateProvider>
  );
}

/** A page outside the main screen, loaded when first opened so the main screen's bundle stays lean. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): RouteObject["lazy"] {
  return async () => ({ Component: (await load())[name] });
}

const NotAvailable = () => <p>This page is not available.</p>;

/**
 * The main entry's routes: the iframe paths of the descriptors' modules (common/spaRoutes.ts, spec
 * section 2). The issue panel has its own entry, panel.tsx. Add a screen by adding its path here.
 */
export const MAIN_ROUTES: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: "/authenticate/:location", Component: AuthenticatePage },
      { path: "/missing-license", lazy: lazyPage(() => import("./pages/MissingLicense/MissingLicensePage.js"), "MissingLicensePage") },
      {
        Component: SignedIn,
        children: [
          {
            Component: MainScreen,
            children: [{ path: "/requirements" }, { path: "/traceability-matrix" }, { path: "/baselines" }],
          },
          { path: "/getting-started", lazy: lazyPage(() => import("./pages/GettingStarted/GettingStartedPage.js"), "GettingStartedPage") },
          { path: "/configuration", lazy: lazyPage(() => import("./pages/Configuration/ConfigurationPage.js"), "ConfigurationPage") },
          {
            path: "/link-requirements-dialog",
            lazy: lazyPage(() => import("./pages/LinkRequirementsDialog/LinkRequirementsDialog.js"), "LinkRequirementsDialog"),
          },
          {
            path: "/confluence-linked-requirements-macro",
            lazy: lazyPage(() => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacro.js"), "LinkedRequirementsMacro"),
          },
          {
            path: "/confluence-linked-requirements-macro-editor",
            lazy: lazyPage(
              () => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacroEditor.js"),
              "LinkedRequirementsMacroEditor",
            ),
          },
          {
            path: "/confluence-insert-requirements-macro",
            lazy: lazyPage(() => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacro.js"), "InsertRequirementsMacro"),
          },
          {
            path: "/confluence-insert-requirements-macro-editor",
            lazy: lazyPage(
              () => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacroEditor.js"),
              "InsertRequirementsMacroEditor",
            ),
          },
        ],
      },
      { path: "*", Component: NotAvailable },
    ],
  },
];
