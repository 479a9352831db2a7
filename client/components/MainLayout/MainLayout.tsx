import EmptyState from "@atlaskit/empty-state";
import { Box, xcss } from "@atlaskit/primitives";
import Spinner from "@atlaskit/spinner";
import Tabs, { TabPanel } from "@atlaskit/tabs";
import { useEffect } from "react";
import { useHost } from "../../host/index.js";
import { BaselinesPage } from "../../pages/Baselines/BaselinesPage.js";
import { RequirementsPage } from "../../pages/Requirements/RequirementsPage.js";
import { TraceabilityMatrixPage } from "../../pages/TraceabilityMatrix/TraceabilityMatrixPage.js";
import { useAppState, useAppStateReady } from "../../state/AppState.js";
import type { MainTab } from "../../state/navigation.js";
import { Footer } from "../Footer/Footer.js";
import { TopNavigation } from "../TopNavigation/TopNavigation.js";
import { TABS, tabIndexOf } from "../TopNavigation/tabs.js";

// Atlaskit's tab panel is a flex row: without growing, a screen is only as wide as its content.
const panelStyles = xcss({ flexGrow: 1, minWidth: "0" });

function Screen({ tab }: { tab: MainTab }) {
  if (tab === "requirements") return <RequirementsPage />;
  if (tab === "traceability") return <TraceabilityMatrixPage />;
  return <BaselinesPage />;
}

/** /requirements, /traceability-matrix, /baselines: top navigation, the tab's screen, the footer. */
export function MainLayout() {
  const host = useHost();
  const { nav, navigate, selectProject } = useAppState();
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
              <Box paddingBlock="space.200" xcss={panelStyles}>
                <Screen tab={nav.tab} />
              </Box>
            </TabPanel>
          ))}
        </Tabs>
      ) : (
        <>
          {navigation}
          <EmptyState header="Select a project" description="Choose a project or Global Requirements above." />
        </>
      )}
      <Footer />
    </Box>
  );
}
