import Button from "@atlaskit/button/new";
import { token } from "@atlaskit/tokens";
import { type BaselinePage, useAppActions, useBaselinePage, useProjectId } from "../../state/AppState.js";
import { BaselineComparison } from "./BaselineComparison.js";
import { BaselineExplorer } from "./BaselineExplorer.js";

const VIEWS: ReadonlyArray<[BaselinePage, string]> = [
  ["baseline-explorer", "Baseline Explorer"],
  ["baseline-comparison", "Baseline Comparison"],
];

/** /baselines: the view selector (Baseline Explorer or Baseline Comparison) and the chosen view. */
export function BaselinesPage() {
  const projectId = useProjectId();
  const baselinePage = useBaselinePage();
  const { setBaselinePage } = useAppActions();
  // The layout shows this screen only once a project is chosen.
  if (projectId === undefined) return null;
  return (
    <div>
      <div style={{ display: "flex", gap: token("space.100"), marginBottom: token("space.200") }}>
        {VIEWS.map(([page, label]) => (
          <Button key={page} isSelected={baselinePage === page} aria-pressed={baselinePage === page} onClick={() => setBaselinePage(page)}>
            {label}
          </Button>
        ))}
      </div>
      {baselinePage === "baseline-comparison" ? (
        <BaselineComparison key={projectId} projectId={projectId} />
      ) : (
        <BaselineExplorer key={projectId} projectId={projectId} />
      )}
    </div>
  );
}
