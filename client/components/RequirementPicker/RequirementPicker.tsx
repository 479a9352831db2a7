import Select from "@atlaskit/select";
import { useMemo, useRef, useState } from "react";
import { type LabelledRequirement, requirementLabel } from "../../../common/labels.js";
import { SEARCH_LIMIT_DEFAULT } from "../../../common/constants.js";
import { type RequirementSearchHit, type RequirementSearchScope, useRequirementSearch } from "../../api/requirementSearch.js";
import { useDebounced } from "../../hooks/useDebounced.js";

/** A short pause: one search per typed word rather than per key, well inside the 300 ms a picker may take. */
export const PICKER_DEBOUNCE_MS = 120;
export const PICKER_LOAD_ERROR = "There was an error loading your requirements";

type Option = { value: number; label: string };
type Group = { label: string; options: Option[] };

export type RequirementPickerProps = {
  inputId: string;
  /** Where the picker searches (GET /api/requirement/search). */
  scope: RequirementSearchScope;
  /** The chosen requirements' ids. */
  value: readonly number[];
  onChange(requirementIds: number[]): void;
  /** Labels of chosen requirements that no search has answered yet (those chosen before the picker opened). */
  known?: readonly LabelledRequirement[];
  /** Never offered (the requirement being edited). */
  exclude?: readonly number[];
  /** Groups the offered requirements (e.g. a project's and the global ones), groups in the order of their best match. */
  groupOf?(requirement: RequirementSearchHit): string;
  isOptionDisabled?(option: Option, chosen: readonly Option[]): boolean;
  isDisabled?: boolean;
  isLoading?: boolean;
  placeholder?: string;
  /** Where the menu opens: document.body on a host page's own dialog; none inside a modal (it stays in the modal's layer). */
  menuPortalTarget?: HTMLElement;
  /** Keep the menu open after a choice, for choosing several in a row (the menu then covers what is below it). */
  keepMenuOpenOnSelect?: boolean;
};

/**
 * Choose requirements by searching for them: nothing is offered until the menu opens, which shows
 * the scope's first requirements at once; typing an ID ("SYS-12") or words asks the server for the
 * best matches. No project's list is ever read whole. Keyboard as every Atlaskit select.
 */
export function RequirementPicker({
  inputId,
  scope,
  value,
  onChange,
  known = [],
  exclude = [],
  groupOf,
  isOptionDisabled,
  isDisabled,
  isLoading,
  placeholder = "Search requirements",
  menuPortalTarget,
  keepMenuOpenOnSelect = false,
}: RequirementPickerProps) {
  const [text, setText] = useState("");
  const [isOpen, setOpen] = useState(false);
  const searchText = useDebounced(text, PICKER_DEBOUNCE_MS);
  const search = useRequirementSearch(scope, searchText, { enabled: isOpen && !isDisabled, limit: SEARCH_LIMIT_DEFAULT });
  // Labels of every requirement seen, so a choice keeps its label after the search moves on.
  const labels = useRef(new Map<number, Option>());
  for (const requirement of known) labels.current.set(requirement.requirement_id, optionOf(requirement));

  const options = useMemo(() => {
    const offered = (search.data ?? []).filter((hit) => !exclude.includes(hit.requirement_id));
    for (const hit of offered) labels.current.set(hit.requirement_id, optionOf(hit));
    return groupOf ? grouped(offered, groupOf) : offered.map(optionOf);
  }, [search.data, exclude, groupOf]);
  const selected = value.map((id) => labels.current.get(id) ?? { value: id, label: String(id) });

  return (
    <Select<Option, true>
      shouldPreventEscapePropagation
      inputId={inputId}
      isMulti
      options={options}
      value={selected}
      inputValue={text}
      onInputChange={(input, meta) => {
        if (meta.action === "input-change") setText(input);
        if (meta.action === "menu-close") setText("");
      }}
      onMenuOpen={() => setOpen(true)}
      onMenuClose={() => setOpen(false)}
      // The server already searched (IDs, words, custom fields): filtering again here would hide its matches.
      filterOption={null}
      onChange={(chosen) => onChange(chosen.map((option) => option.value))}
      isOptionDisabled={isOptionDisabled ? (option) => isOptionDisabled(option, selected) : undefined}
      isLoading={isLoading || search.isFetching}
      isDisabled={isDisabled}
      noOptionsMessage={() => (search.isError ? PICKER_LOAD_ERROR : search.isFetching ? "Searching…" : "No matching requirements")}
      placeholder={placeholder}
      closeMenuOnSelect={!keepMenuOpenOnSelect}
      menuPortalTarget={menuPortalTarget}
    />
  );
}

const optionOf = (requirement: LabelledRequirement): Option => ({
  value: requirement.requirement_id,
  label: requirementLabel(requirement),
});

function grouped(hits: readonly RequirementSearchHit[], groupOf: (hit: RequirementSearchHit) => string): Group[] {
  const groups = new Map<string, Option[]>();
  for (const hit of hits) {
    const label = groupOf(hit);
    groups.set(label, [...(groups.get(label) ?? []), optionOf(hit)]);
  }
  return [...groups].map(([label, options]) => ({ label, options }));
}
