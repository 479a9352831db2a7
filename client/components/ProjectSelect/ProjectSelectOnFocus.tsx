import InformationCircleIcon from "@atlaskit/icon/core/information-circle";
import { Inline } from "@atlaskit/primitives/compiled";
import { token } from "@atlaskit/tokens";
import { Suspense, useMemo, useState } from "react";
import { useProjects } from "../../api/projects.js";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import { GLOBAL_REQUIREMENTS_INFO, PLACEHOLDER, projectOptions } from "./projectOptions.js";
import { INFO_BUTTON, type ProjectSelectProps, SELECT_WIDTH } from "./projectSelectLayout.js";

const ProjectSelect = lazyNamed(() => import("./ProjectSelect.js"), "ProjectSelect");

/** How the user reached for the dropdown: pointed at it, focused it, or pressed it (which opens its menu). */
type Reach = "pointed" | "focused" | "pressed";

const STAND_IN = {
  boxSizing: "border-box",
  width: "100%",
  minHeight: 40,
  padding: `0 ${token("space.100")}`,
  border: `${token("border.width")} solid ${token("color.border.input")}`,
  borderRadius: token("radius.small"),
  background: token("color.background.input"),
  color: token("color.text"),
  font: token("font.body"),
  cursor: "default",
} as const;

/**
 * The project dropdown of the first screen: the chosen project in a box drawn like Atlaskit's select,
 * which replaces it when the user reaches for it. The select (react-select, emotion, the tooltip's
 * popper: some 35 KB gzipped) is not needed for the first tree row (issue 39).
 */
export function ProjectSelectOnFocus(props: ProjectSelectProps) {
  const [reach, setReach] = useState<Reach | undefined>();
  const projects = useProjects();
  const options = useMemo(() => projectOptions(projects.data ?? []), [projects.data]);
  const selected = options.find((option) => option.value !== undefined && option.value === props.projectId) ?? PLACEHOLDER;
  const reachFor = (how: Reach) => setReach((before) => before ?? how);
  const standIn = (
    <Inline space="space.100" alignBlock="center">
      <div style={{ minWidth: SELECT_WIDTH }}>
        <input
          id="project-select"
          aria-label="Project"
          role="combobox"
          aria-expanded={false}
          readOnly
          value={selected.label}
          style={STAND_IN}
          onPointerEnter={() => reachFor("pointed")}
          onPointerDown={() => setReach("pressed")}
          onFocus={() => reachFor("focused")}
        />
      </div>
      <button type="button" aria-label={GLOBAL_REQUIREMENTS_INFO} style={INFO_BUTTON} onPointerEnter={() => reachFor("pointed")}>
        <InformationCircleIcon label="" color="currentColor" />
      </button>
    </Inline>
  );
  if (!reach) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ProjectSelect {...props} autoFocus={reach !== "pointed"} menuOpen={reach === "pressed"} />
    </Suspense>
  );
}
