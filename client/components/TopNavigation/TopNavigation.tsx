import { Box, Inline } from "@atlaskit/primitives/compiled";
import { Tab, TabList } from "@atlaskit/tabs";
import { ProjectSelectOnFocus } from "../ProjectSelect/ProjectSelectOnFocus.js";
import { TABS } from "./tabs.js";

/** The project dropdown and, once a project is chosen, the tab list (rendered inside the layout's Tabs). */
export function TopNavigation({ projectId, onSelectProject }: { projectId: number | undefined; onSelectProject(projectId: number): void }) {
  return (
    <Box paddingBlockEnd="space.100">
      <Inline space="space.300" alignBlock="center" spread="space-between">
        {projectId !== undefined ? (
          <TabList>
            {TABS.map((entry) => (
              <Tab key={entry.tab}>{entry.label}</Tab>
            ))}
          </TabList>
        ) : (
          <span />
        )}
        <ProjectSelectOnFocus projectId={projectId} onChange={onSelectProject} />
      </Inline>
    </Box>
  );
}
