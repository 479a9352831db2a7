import { Box } from "@atlaskit/primitives/compiled";
import Spinner from "@atlaskit/spinner";
import Tabs, { TabPanel } from "@atlaskit/tabs";
import { lazy, Suspense, useEffect } from "react";
import { useHost } from "../../host/index.js";
import { RequirementsPage } from "../../pages/Requirements/RequirementsPage.js";
import { useAppActions, useAppStateReady, useNav } from "../../state/AppState.js";
import type { MainTab } from "../../state/navigation.js";
import { Footer } from "../Footer/Footer.js";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import { TopNavigation } from "../TopNavigation/TopNavigation.js";
import { TABS, tabIndexOf } from "../TopNavigation/tabs.js";
import { loadBaselinesScreen, loadTraceabilityScreen } from "./tabScreens.js";

// The first screen is the requirements tree: the other tabs load when first opened (issue 39).
const TraceabilityMatrixPage = lazyNamed(loadTraceabilityScreen, "TraceabilityMatrixPage");
const EmptyState = lazy(() => import("@atlaskit/empty-state"));
const BaselinesPage = lazyNamed(loadBaselinesScreen, "BaselinesPage");

// Atlaskit's tab panel is a flex row: without growing, a screen is only as wide as its content.
const PANEL_STYLE = { flexGrow: 1, minWidth: 0 };

function Screen({ tab }: { tab: MainTab }) {
  if (tab === "requirements") return <RequirementsPage />;
  return (
    <Suspense fallback={<Spinner size="large" label="Loading" />}>
      {tab === "traceability" ? <TraceabilityMatrixPage /> : <BaselinesPage />}
    </Suspense>
  );
}

/** /requirements, /traceability-matrix, /baselines: top navigation, the tab's screen, the footer. */
export function MainLayout() {
  const host = useHost();
  const nav = useNav();
  const { navigate, selectProject } = useAppActions();
  const ready = useAppStateReady();
  useEffect(() => host.sizeToParent(), [host]);

  if (!ready) return <Spinner size="large" label="Loading" />;
  const navigation = <TopNavigation projectId={nav?.projectId} onSelectProject={selectProject} />;
  return (
    <Box padding="space.200">
      {nav ? (
        <Tabs
          id="main-tabs"
          selected={tabIndexOf(nav.tab)}
          shouldUnmountTabPanelOnChange
          onChange={(index) => {
            const entry = TABS[index];
            if (entry) navigate({ projectId: nav.projectId, tab: entry.tab });
          }}
        >
          {navigation}
          {TABS.map((entry) => (
            <TabPanel key={entry.tab}>
              <Box paddingBlock="space.200" style={PANEL_STYLE}>
                <Screen tab={nav.tab} />
              </Box>
            </TabPanel>
          ))}
        </Tabs>
      ) : (
        <>
          {navigation}
          <Suspense fallback={null}>
            <EmptyState header="Select a project" description="Choose a project or Global Requirements above." />
          </Suspense>
        </>
      )}
      <Footer />
    </Box>
  );
}
