import InformationCircleIcon from "@atlaskit/icon/core/information-circle";
import { Inline } from "@atlaskit/primitives/compiled";
import Select from "@atlaskit/select";
import Tooltip from "@atlaskit/tooltip";
import { useMemo } from "react";
import { useProjects } from "../../api/projects.js";
import { GLOBAL_REQUIREMENTS_INFO, PLACEHOLDER, type ProjectOption, projectOptions } from "./projectOptions.js";
import { INFO_BUTTON, type ProjectSelectProps, SELECT_WIDTH } from "./projectSelectLayout.js";

/** Atlaskit's select of the projects; `autoFocus` and `menuOpen` carry over how the user reached for its stand-in (ProjectSelectOnFocus). */
export function ProjectSelect({
  projectId,
  onChange,
  autoFocus,
  menuOpen,
}: ProjectSelectProps & { autoFocus?: boolean; menuOpen?: boolean }) {
  const projects = useProjects();
  const options = useMemo(() => projectOptions(projects.data ?? []), [projects.data]);
  const selected = options.find((option) => option.value !== undefined && option.value === projectId) ?? PLACEHOLDER;
  return (
    <Inline space="space.100" alignBlock="center">
      <div style={{ minWidth: SELECT_WIDTH }}>
        <Select<ProjectOption>
          inputId="project-select"
          aria-label="Project"
          autoFocus={autoFocus}
          defaultMenuIsOpen={menuOpen}
          options={options}
          value={selected}
          isLoading={projects.isLoading}
          isOptionDisabled={(option) => option.isDisabled === true}
          onChange={(option) => {
            if (option?.value !== undefined) onChange(option.value);
          }}
        />
      </div>
      <Tooltip content={GLOBAL_REQUIREMENTS_INFO}>
        {(props) => (
          <button {...props} type="button" aria-label={GLOBAL_REQUIREMENTS_INFO} style={INFO_BUTTON}>
            <InformationCircleIcon label="" color="currentColor" />
          </button>
        )}
      </Tooltip>
    </Inline>
  );
}
