import Button from "@atlaskit/button/new";
import { Label } from "@atlaskit/form";
import Select from "@atlaskit/select";
import Spinner from "@atlaskit/spinner";
import Toggle from "@atlaskit/toggle";
import { token } from "@atlaskit/tokens";
import { useId, useState } from "react";
import { baselineIdLabel } from "../../../common/schemas/baseline.js";
import { useBaselines, useComparison } from "../../api/baselines.js";
import { RequirementDiffTable } from "../../components/BaselineDiff/RequirementDiffTable.js";
import { RetrieveError } from "./RetrieveError.js";

type Option = { label: string; value: number };
type Pair = { baseline1: number; baseline2: number };

export const NO_DIFFERENCES_TEXT = "No differences between these baselines";

/** Baseline Comparison: pick two baselines, Compare (spec section 5: needs both), read the differences. */
export function BaselineComparison({ projectId }: { projectId: number }) {
  const ids = { first: useId(), second: useId(), unchanged: useId() };
  const baselines = useBaselines(projectId);
  const [first, setFirst] = useState<number | undefined>();
  const [second, setSecond] = useState<number | undefined>();
  const [compared, setCompared] = useState<Pair | undefined>();
  const [showUnchanged, setShowUnchanged] = useState(false);
  const comparison = useComparison(projectId, compared, showUnchanged);
  const options: Option[] = (baselines.data ?? []).map((baseline) => ({
    label: `${baselineIdLabel(baseline.baseline_id)}: ${baseline.name}`,
    value: baseline.baseline_id,
  }));
  const differences = comparison.data?.pages.flatMap((page) => page.requirements) ?? [];

  return (
    <div>
      <div style={{ display: "flex", gap: token("space.200"), alignItems: "flex-end", flexWrap: "wrap" }}>
        <div style={{ minWidth: 240 }}>
          <Label htmlFor={ids.first}>Baseline 1</Label>
          <Select<Option>
            inputId={ids.first}
            options={options}
            value={options.find((option) => option.value === first) ?? null}
            onChange={(option) => setFirst(option?.value)}
            isLoading={baselines.isLoading}
          />
        </div>
        <div style={{ minWidth: 240 }}>
          <Label htmlFor={ids.second}>Baseline 2</Label>
          <Select<Option>
            inputId={ids.second}
            options={options}
            value={options.find((option) => option.value === second) ?? null}
            onChange={(option) => setSecond(option?.value)}
            isLoading={baselines.isLoading}
          />
        </div>
        <Button
          appearance="primary"
          isDisabled={first === undefined || second === undefined}
          onClick={() => {
            if (first !== undefined && second !== undefined) setCompared({ baseline1: first, baseline2: second });
          }}
        >
          Compare
        </Button>
        <div style={{ display: "flex", alignItems: "center" }}>
          <Toggle id={ids.unchanged} isChecked={showUnchanged} onChange={() => setShowUnchanged(!showUnchanged)} />
          <label htmlFor={ids.unchanged}>Show unchanged requirements</label>
        </div>
      </div>
      <div style={{ marginTop: token("space.300") }}>
        {comparison.isLoading ? <Spinner size="large" label="Comparing baselines" /> : null}
        {comparison.isError ? <RetrieveError error={comparison.error} /> : null}
        {comparison.isSuccess && differences.length === 0 ? <p>{NO_DIFFERENCES_TEXT}</p> : null}
        {differences.map((diff) => (
          <RequirementDiffTable key={diff.requirement_id} projectId={projectId} diff={diff} />
        ))}
        {comparison.hasNextPage ? (
          <Button onClick={() => void comparison.fetchNextPage()} isLoading={comparison.isFetchingNextPage}>
            Show more
          </Button>
        ) : null}
      </div>
    </div>
  );
}
