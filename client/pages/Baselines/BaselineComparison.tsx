import Button from "@atlaskit/button/new";
import { Label } from "@atlaskit/form";
import Select from "@atlaskit/select";
import Spinner from "@atlaskit/spinner";
import Toggle from "@atlaskit/toggle";
import { token } from "@atlaskit/tokens";
import { useId, useState } from "react";
import { baselineIdLabel } from "../../../common/constants.js";
import { useBaselines, useComparison } from "../../api/baselines.js";
import { RequirementDiffTable } from "../../components/BaselineDiff/RequirementDiffTable.js";
import { RetrieveError } from "./RetrieveError.js";

type Option = { label: string; value: number };
type Pair = { baseline1: number; baseline2: number };

export const NO_DIFFERENCES_TEXT = "No differences between these baselines";

/** Baseline Comparison: pick two baselines, Compare (spec section 5: needs both), read the differences. */
export function BaselineComparison({ projectId }: { projectId: number }) {
  const unchangedId = useId();
  const baselines = useBaselines(projectId);
  const [first, setFirst] = useState<number | undefined>();
  const [second, setSecond] = useState<number | undefined>();
  const [compared, setCompared] = useState<Pair | undefined>();
  const [showUnchanged, setShowUnchanged] = useState(false);
  const comparison = useComparison(projectId, compared, showUnchanged);
  const options: Option[] = (baselines.items ?? []).map((baseline) => ({
    label: `${baselineIdLabel(baseline.baseline_id)}: ${baseline.name}`,
    value: baseline.baseline_id,
  }));
  const differences = comparison.data?.pages.flatMap((page) => page.requirements) ?? [];

  return (
    <div>
      <div style={{ display: "flex", gap: token("space.200"), alignItems: "flex-end", flexWrap: "wrap" }}>
        <BaselineSelect label="Baseline 1" options={options} value={first} onChange={setFirst} isLoading={baselines.isLoading} />
        <BaselineSelect label="Baseline 2" options={options} value={second} onChange={setSecond} isLoading={baselines.isLoading} />
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
          <Toggle id={unchangedId} isChecked={showUnchanged} onChange={() => setShowUnchanged(!showUnchanged)} />
          <label htmlFor={unchangedId}>Show unchanged requirements</label>
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

function BaselineSelect({
  label,
  options,
  value,
  onChange,
  isLoading,
}: {
  label: string;
  options: Option[];
  value: number | undefined;
  onChange(value: number | undefined): void;
  isLoading: boolean;
}) {
  const inputId = useId();
  return (
    <div style={{ minWidth: 240 }}>
      <Label htmlFor={inputId}>{label}</Label>
      <Select<Option>
        inputId={inputId}
        options={options}
        value={options.find((option) => option.value === value) ?? null}
        onChange={(option) => onChange(option?.value)}
        isLoading={isLoading}
      />
    </div>
  );
}
