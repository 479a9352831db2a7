import { Label } from "@atlaskit/form";
import Select from "@atlaskit/select";
import { useId } from "react";
import { requirementLabel } from "../../../common/labels.js";
import { MAX_REQUIREMENTS_PER_CONTENT } from "../../../common/schemas/confluence.js";
import type { RequirementLite } from "../../../common/schemas/requirement.js";
import { GLOBAL_PROJECT_NAME } from "../../api/projects.js";

type Option = { value: number; label: string };

const optionOf = (requirement: RequirementLite): Option => ({ value: requirement.requirement_id, label: requirementLabel(requirement) });

/**
 * The macro editors' choice: a searchable multi-select of the site's requirements (every project's,
 * then Global Requirements), at most 20. A Confluence page cannot read Jira's project names, so
 * project requirements are offered together.
 */
export function RequirementsChoice({
  label,
  requirements,
  value,
  onChange,
  isLoading,
}: {
  label: string;
  requirements: readonly RequirementLite[];
  value: readonly number[];
  onChange(requirementIds: number[]): void;
  isLoading: boolean;
}) {
  const inputId = useId();
  const groups = [
    { label: "Project requirements", options: requirements.filter((r) => r.project !== 0).map(optionOf) },
    { label: GLOBAL_PROJECT_NAME, options: requirements.filter((r) => r.project === 0).map(optionOf) },
  ];
  const byId = new Map(requirements.map((requirement) => [requirement.requirement_id, optionOf(requirement)]));
  const selected = value.flatMap((id) => byId.get(id) ?? []);
  const full = selected.length >= MAX_REQUIREMENTS_PER_CONTENT;
  return (
    <div>
      <Label htmlFor={inputId}>{label}</Label>
      <Select<Option, true>
        inputId={inputId}
        isMulti
        isLoading={isLoading}
        isDisabled={isLoading}
        options={groups}
        value={selected}
        onChange={(options) => onChange(options.map((option) => option.value))}
        isOptionDisabled={() => full}
        placeholder="Choose requirements"
        closeMenuOnSelect={false}
        menuPortalTarget={document.body}
      />
      <p>{`At most ${MAX_REQUIREMENTS_PER_CONTENT} requirements.`}</p>
    </div>
  );
}
