import { Label } from "@atlaskit/form";
import { useId } from "react";
import type { LabelledRequirement } from "../../../common/labels.js";
import { MAX_REQUIREMENTS_PER_CONTENT } from "../../../common/schemas/confluence.js";
import { GLOBAL_PROJECT_NAME } from "../../api/projects.js";
import { RequirementPicker } from "../RequirementPicker/RequirementPicker.js";

const groupOf = (requirement: { project: number }) => (requirement.project === 0 ? GLOBAL_PROJECT_NAME : "Project requirements");

/**
 * The macro editors' choice: a multi-select searching the site's requirements (every project's and
 * Global Requirements), at most 20. A Confluence page cannot read Jira's project names, so project
 * requirements are offered together.
 */
export function RequirementsChoice({
  label,
  known,
  value,
  onChange,
  isLoading,
}: {
  label: string;
  /** The chosen requirements' labels, as far as they are known. */
  known: readonly LabelledRequirement[];
  value: readonly number[];
  onChange(requirementIds: number[]): void;
  isLoading: boolean;
}) {
  const inputId = useId();
  return (
    <div>
      <Label htmlFor={inputId}>{label}</Label>
      <RequirementPicker
        inputId={inputId}
        scope={{}}
        value={value}
        onChange={onChange}
        known={known}
        groupOf={groupOf}
        isOptionDisabled={(_option, chosen) => chosen.length >= MAX_REQUIREMENTS_PER_CONTENT}
        isLoading={isLoading}
        isDisabled={isLoading}
        placeholder="Choose requirements"
        menuPortalTarget={document.body}
        keepMenuOpenOnSelect
      />
      <p>{`At most ${MAX_REQUIREMENTS_PER_CONTENT} requirements.`}</p>
    </div>
  );
}
