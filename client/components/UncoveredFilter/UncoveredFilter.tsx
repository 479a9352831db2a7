import Button from "@atlaskit/button/new";
import { token } from "@atlaskit/tokens";
import type { Uncovered } from "../../api/coverage.js";
import { setUncoveredFilter, type UncoveredFilter as Filter } from "./uncoveredFilterStore.js";

export const UNCOVERED_LABELS: Record<Uncovered, string> = {
  issues: "Uncovered by issues",
  next_level: "Uncovered by next level",
};

/**
 * The tree filter: every requirement, or only those without a linked Jira issue, or without a
 * linked requirement of the next level. A filter the folder detail set names its folder.
 */
export function UncoveredFilterBar({
  projectId,
  filter,
  total,
}: {
  projectId: number;
  filter: Filter | undefined;
  total: number | undefined;
}) {
  const choose = (uncovered: Uncovered | undefined) => setUncoveredFilter(uncovered === undefined ? undefined : { projectId, uncovered });
  return (
    <div style={{ marginBottom: token("space.100") }}>
      <fieldset
        aria-label="Tree filter"
        style={{ display: "flex", flexWrap: "wrap", gap: token("space.050"), border: 0, padding: 0, margin: 0 }}
      >
        <Button spacing="compact" isSelected={filter === undefined} onClick={() => choose(undefined)}>
          All requirements
        </Button>
        {(Object.keys(UNCOVERED_LABELS) as Uncovered[]).map((uncovered) => (
          <Button
            key={uncovered}
            spacing="compact"
            isSelected={filter?.uncovered === uncovered && !filter.folder}
            onClick={() => choose(uncovered)}
          >
            {UNCOVERED_LABELS[uncovered]}
          </Button>
        ))}
      </fieldset>
      {filter && total !== undefined ? (
        <p role="status" style={{ margin: `${token("space.100")} 0 0` }}>
          {`${UNCOVERED_LABELS[filter.uncovered]}: ${total} ${total === 1 ? "requirement" : "requirements"}`}
          {filter.folder ? ` in folder ${filter.folder.name}` : ""}
        </p>
      ) : null}
    </div>
  );
}
