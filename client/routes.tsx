import Spinner from "@atlaskit/spinner";
import { Suspense } from "react";
import { Outlet, type RouteObject } from "react-router-dom";
import { useTokenRefresh } from "./api/auth.js";
import { lazyNamed } from "./components/Lazy/lazyNamed.js";
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

// The pages outside the main screen load when first opened, so the main screen's bundle stays lean.
const MissingLicensePage = lazyNamed(() => import("./pages/MissingLicense/MissingLicensePage.js"), "MissingLicensePage");
const GettingStartedPage = lazyNamed(() => import("./pages/GettingStarted/GettingStartedPage.js"), "GettingStartedPage");
const ConfigurationPage = lazyNamed(() => import("./pages/Configuration/ConfigurationPage.js"), "ConfigurationPage");
const LinkRequirementsDialog = lazyNamed(
  () => import("./pages/LinkRequirementsDialog/LinkRequirementsDialog.js"),
  "LinkRequirementsDialog",
);
const LinkedRequirementsMacro = lazyNamed(
  () => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacro.js"),
  "LinkedRequirementsMacro",
);
const LinkedRequirementsMacroEditor = lazyNamed(
  () => import("./pages/ConfluenceLinkedRequirementsMacro/LinkedRequirementsMacroEditor.js"),
  "LinkedRequirementsMacroEditor",
);
const InsertRequirementsMacro = lazyNamed(
  () => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacro.js"),
  "InsertRequirementsMacro",
);
const InsertRequirementsMacroEditor = lazyNamed(
  () => import("./pages/ConfluenceInsertRequirementsMacro/InsertRequirementsMacroEditor.js"),
  "InsertRequirementsMacroEditor",
);

const NotAvailable = () => <p>This page is not available.</p>;

/**
 * The main entry's routes: the iframe paths of the descriptors' modules (common/spaRoutes.ts, spec
 * section 2). The issue panel has its own entry, panel.tsx. Add a screen by adding its path here.
 * Declarative routes (useRoutes), not a data router: the app loads nothing through the router, and
 * the data router's code was a third of the first screen's script (issue 39). A screen that throws
 * ends in the entry's ErrorBoundary.
 */
export const MAIN_ROUTES: RouteObject[] = [
  { path: "/authenticate/:location", element: <AuthenticatePage /> },
  {
    path: "/missing-license",
    element: (
      <Suspense fallback={null}>
        <MissingLicensePage />
      </Suspense>
    ),
  },
  {
    element: <SignedIn />,
    children: [
      {
        element: <MainScreen />,
        children: [
          { path: "/requirements", element: null },
          { path: "/traceability-matrix", element: null },
          { path: "/baselines", element: null },
        ],
      },
      { path: "/getting-started", element: <GettingStartedPage /> },
      { path: "/configuration", element: <ConfigurationPage /> },
      { path: "/link-requirements-dialog", element: <LinkRequirementsDialog /> },
      { path: "/confluence-linked-requirements-macro", element: <LinkedRequirementsMacro /> },
      { path: "/confluence-linked-requirements-macro-editor", element: <LinkedRequirementsMacroEditor /> },
      { path: "/confluence-insert-requirements-macro", element: <InsertRequirementsMacro /> },
      { path: "/confluence-insert-requirements-macro-editor", element: <InsertRequirementsMacroEditor /> },
    ],
  },
  { path: "*", element: <NotAvailable /> },
];
