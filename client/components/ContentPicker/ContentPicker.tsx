import Select from "@atlaskit/select";
import { useCallback, useEffect, useMemo, useState } from "react";
import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "../../../common/schemas/confluence.js";
import { type PageSearchResult, searchPages, useContentDetails } from "../../api/confluence.js";

type Option = { value: string; label: string };

const optionOf = (page: Pick<PageSearchResult, "atlassian_content_id" | "title"> & { space: { key: string } }): Option => ({
  value: page.atlassian_content_id,
  label: page.space.key ? `${page.title} (${page.space.key})` : page.title,
});

/** Typing settles for this long before Confluence is asked. */
const SEARCH_DELAY_MS = 250;

/**
 * The requirement form's Confluence pages: a title search through our server (which asks Confluence
 * by CQL as the app, within the space filter), 20 results at a time with more on scrolling, at most
 * 20 pages chosen.
 */
export function ContentPicker({
  inputId,
  value,
  onChange,
  isDisabled,
}: {
  inputId: string;
  value: readonly string[];
  onChange(contentIds: string[]): void;
  isDisabled: boolean;
}) {
  const [input, setInput] = useState("");
  const [found, setFound] = useState<{ title: string; options: Option[]; next: number | null }>({ title: "", options: [], next: 0 });
  const [state, setState] = useState<"idle" | "loading" | "failed">("idle");
  const chosen = useContentDetails(value, true);

  const load = useCallback((title: string, start: number) => {
    setState("loading");
    searchPages(title, start).then(
      (page) => {
        setFound((previous) => ({
          title,
          options: [...(start === 0 ? [] : previous.options), ...page.results.map(optionOf)],
          next: page.next_start,
        }));
        setState("idle");
      },
      () => setState("failed"),
    );
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => load(input, 0), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input, load]);

  const labels = useMemo(() => {
    const known = new Map<string, string>();
    for (const option of found.options) known.set(option.value, option.label);
    for (const content of chosen.data ?? []) known.set(content.atlassian_content_id, optionOf(content).label);
    return known;
  }, [found.options, chosen.data]);
  const selected = value.map((id) => ({ value: id, label: labels.get(id) ?? `Confluence page ${id}` }));
  const full = value.length >= MAX_LINKED_CONTENTS;

  return (
    <>
      <Select<Option, true>
        shouldPreventEscapePropagation
        inputId={inputId}
        isMulti
        options={found.options}
        value={selected}
        onChange={(options) => onChange(options.map((option) => option.value))}
        inputValue={input}
        onInputChange={(text, meta) => {
          if (meta.action === "input-change") setInput(text);
        }}
        filterOption={null}
        isOptionDisabled={() => full}
        onMenuScrollToBottom={() => {
          if (found.next !== null && state === "idle") load(found.title, found.next);
        }}
        isLoading={state === "loading"}
        isDisabled={isDisabled}
        placeholder="Search pages by title"
        noOptionsMessage={() => (state === "failed" ? WIKI_DATA_PROBLEM : "No pages found")}
      />
      {state === "failed" ? <p role="alert">{WIKI_DATA_PROBLEM}</p> : null}
      {full ? <p>{CONTENT_LIMIT_MESSAGE}</p> : null}
    </>
  );
}
