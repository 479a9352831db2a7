import Select from "@atlaskit/select";
import Tooltip from "@atlaskit/tooltip";
import { useMemo, useState } from "react";
import { HOST_DATA_ERROR, NO_ISSUES_TOOLTIP } from "../../api/jira/hostData.js";
import { type JiraIssue, useIssueSearch, useIssuesByIds } from "../../api/jira/issues.js";
import { useDebounced } from "../../hooks/useDebounced.js";

export type IssuePickerProps = {
  /** The requirement's project; 0 (Global Requirements) searches every project. */
  projectId: number;
  /** Chosen issue ids (`issues` of the requirement form). */
  value: readonly string[];
  onChange: (issueIds: string[]) => void;
  inputId?: string;
  isDisabled?: boolean;
};

type Option = { value: string; label: string };

/** Typing pauses this long before the host is searched, so a word is one search, not one per key. */
export const SEARCH_DEBOUNCE_MS = 300;

const optionOf = (issue: JiraIssue): Option => ({ value: issue.id, label: `${issue.key} ${issue.fields.summary}` });

/**
 * Choose issues to link to a requirement: searches the project's issues as the user types (JQL
 * `text ~`), 100 a page, the next page when the menu is scrolled to its end, so a project of
 * 50,000 issues is never read whole.
 */
export function IssuePicker({ projectId, value, onChange, inputId, isDisabled }: IssuePickerProps) {
  const [text, setText] = useState("");
  const searchText = useDebounced(text, SEARCH_DEBOUNCE_MS);
  const search = useIssueSearch(projectId, searchText, !isDisabled);
  const chosen = useIssuesByIds(value);

  const options = useMemo(() => (search.data?.pages ?? []).flatMap((page) => page.items.map(optionOf)), [search.data]);
  const selected = value.map((issueId) => {
    const issue = chosen.data?.get(issueId);
    return issue ? optionOf(issue) : { value: issueId, label: issueId };
  });
  const projectHasNoIssues = search.isSuccess && searchText.trim() === "" && options.length === 0;

  const select = (
    <Select<Option, true>
      shouldPreventEscapePropagation
      inputId={inputId}
      isMulti
      isDisabled={isDisabled || projectHasNoIssues}
      isLoading={search.isFetching}
      options={options}
      value={selected}
      inputValue={text}
      onInputChange={(input, meta) => {
        if (meta.action === "input-change") setText(input);
        if (meta.action === "menu-close") setText("");
      }}
      // The host already searched: filtering again here would hide matches of the issue's description.
      filterOption={null}
      onChange={(options) => onChange(options.map((option) => option.value))}
      onMenuScrollToBottom={() => {
        if (search.hasNextPage && !search.isFetchingNextPage) void search.fetchNextPage();
      }}
      noOptionsMessage={() => (search.isError ? HOST_DATA_ERROR : "No matching issues")}
      placeholder="Search issues"
      closeMenuOnSelect={false}
    />
  );

  return (
    <div>
      {projectHasNoIssues ? (
        <Tooltip content={NO_ISSUES_TOOLTIP}>
          <div>{select}</div>
        </Tooltip>
      ) : (
        select
      )}
      {(search.isError || chosen.isError) && (
        <p role="alert" style={{ color: "#ae2e24", margin: "4px 0 0" }}>
          {HOST_DATA_ERROR}
        </p>
      )}
    </div>
  );
}
