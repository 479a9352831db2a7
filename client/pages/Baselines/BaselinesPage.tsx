import Button from "@atlaskit/button/new";
import { token } from "@atlaskit/tokens";
import { useAppState } from "../../state/AppState.js";
import { BaselineComparison } from "./BaselineComparison.js";
import { BaselineExplorer } from "./BaselineExplorer.js";

/** /baselines: the view selector (Baseline Explorer or Baseline Comparison) and the chosen view. */
export function BaselinesPage() {
  const { projectId, baselinePage, setBaselinePage } = useAppState();
  // The layout shows this screen only once a project is chosen.
  if (projectId === undefined) return null;
  return (
    <div>
      <div style={{ display: "flex", gap: token("space.100"), marginBottom: token("space.200") }}>
        <Button
          isSelected={baselinePage === "baseline-explorer"}
          aria-pressed={baselinePage === "baseline-explorer"}
          onClick={() => setBaselinePage("baseline-explorer")}
        >
          Baseline Explorer
        </Button>
        <Button
          isSelected={baselinePage === "baseline-comparison"}
          aria-pressed={baselinePage === "baseline-comparison"}
          onClick={() => setBaselinePage("baseline-comparison")}
        >
          Baseline Comparison
        </Button>
      </div>
      {baselinePage === "baseline-comparison" ? (
        <BaselineComparison key={projectId} projectId={projectId} />
      ) : (
        <BaselineExplorer key={projectId} projectId={projectId} />
      )}
    </div>
  );
}
