import Spinner from "@atlaskit/spinner";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { useState } from "react";
import { requirementIdLabel } from "../../../common/labels.js";
import { SEARCH_LIMIT_MAX } from "../../../common/constants.js";
import {
  type Highlight,
  type RequirementSearchHit,
  type RequirementSearchScope,
  useRequirementSearch,
} from "../../api/requirementSearch.js";
import { useDebounced } from "../../hooks/useDebounced.js";

export const SEARCH_LABEL = "Search requirements";
export const NO_RESULTS = "No requirements found for your search query";
export const SEARCH_FAILED = "There was an error loading your requirements";
const SEARCH_DEBOUNCE_MS = 200;
const RESULT_STYLE = {
  display: "block",
  width: "100%",
  textAlign: "start",
  background: "none",
  border: "none",
  padding: token("space.075"),
  cursor: "pointer",
  font: "inherit",
  color: "inherit",
} as const;

/**
 * The Requirements screen's search: an ID or words of names, descriptions and custom fields, the
 * best matches first with the found words highlighted; choosing one opens it in the tree.
 */
export function RequirementSearch({ scope, onOpen }: { scope: RequirementSearchScope; onOpen(requirement: RequirementSearchHit): void }) {
  const [text, setText] = useState("");
  const searchText = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useRequirementSearch(scope, searchText, { enabled: searchText !== "", limit: SEARCH_LIMIT_MAX });
  const hits = searchText === "" ? [] : (search.data ?? []);

  return (
    <search style={{ marginBottom: token("space.200") }}>
      <Textfield
        aria-label={SEARCH_LABEL}
        placeholder="Search by ID or words"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setText("");
        }}
        elemAfterInput={search.isFetching && searchText !== "" ? <Spinner size="small" label="Searching" /> : undefined}
      />
      {searchText === "" ? null : (
        <div style={{ marginTop: token("space.100") }}>
          {search.isError ? <p role="alert">{SEARCH_FAILED}</p> : null}
          {search.isSuccess && hits.length === 0 ? <p>{NO_RESULTS}</p> : null}
          {hits.length > 0 ? (
            <ol aria-label="Search results" style={{ listStyle: "none", margin: 0, padding: 0, maxHeight: 360, overflowY: "auto" }}>
              {hits.map((hit) => (
                <li key={hit.requirement_id} style={{ borderBottom: `1px solid ${token("color.border")}` }}>
                  {/* Atlaskit's Button is one line high; a result is several lines. */}
                  <button
                    type="button"
                    style={RESULT_STYLE}
                    onClick={() => {
                      setText("");
                      onOpen(hit);
                    }}
                  >
                    <SearchResult hit={hit} />
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      )}
    </search>
  );
}

function SearchResult({ hit }: { hit: RequirementSearchHit }) {
  const id = requirementIdLabel(hit);
  return (
    <span style={{ display: "block" }}>
      <span style={{ fontWeight: 600 }}>{hit.matched === "id" ? <mark>{id}</mark> : id}</span>
      {": "}
      <Highlighted runs={hit.highlights.name} />
      {hit.highlights.description ? (
        <span style={{ display: "block", color: token("color.text.subtle") }}>
          <Highlighted runs={hit.highlights.description} />
        </span>
      ) : null}
      {hit.highlights.field ? (
        <span style={{ display: "block", color: token("color.text.subtle") }}>
          {`${hit.highlights.field.name}: `}
          <Highlighted runs={hit.highlights.field.value} />
        </span>
      ) : null}
    </span>
  );
}

/** Text whose found words are marked (the server cut it into runs; nothing is read as HTML). */
function Highlighted({ runs }: { runs: Highlight }) {
  return runs.map((run, index) =>
    // The runs of one text never move: their position is their identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    run.match ? <mark key={index}>{run.text}</mark> : <span key={index}>{run.text}</span>,
  );
}
