import Button from "@atlaskit/button/new";
import { Label } from "@atlaskit/form";
import Select from "@atlaskit/select";
import Spinner from "@atlaskit/spinner";
import Toggle from "@atlaskit/toggle";
import { token } from "@atlaskit/tokens";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { type Control, useController, useForm } from "react-hook-form";
import { baselineIdLabel } from "../../../common/constants.js";
import { useBaselines, useComparison } from "../../api/baselines.js";
import { RequirementDiffTable } from "../../components/BaselineDiff/RequirementDiffTable.js";
import { type ComparedPair, type ComparisonFormValues, comparisonFormSchema } from "./comparisonForm.js";
import { RetrieveError } from "./RetrieveError.js";

type Option = { label: string; value: number };

export const NO_DIFFERENCES_TEXT = "No differences between these baselines";

/** Baseline Comparison: pick two baselines, Compare (spec section 5: needs both), read the differences. */
export function BaselineComparison({ projectId }: { projectId: number }) {
  const unchangedId = useId();
  const baselines = useBaselines(projectId);
  const { control, handleSubmit, formState } = useForm<ComparisonFormValues, unknown, ComparedPair>({
    resolver: zodResolver(comparisonFormSchema),
    mode: "onChange",
  });
  const [compared, setCompared] = useState<ComparedPair | undefined>();
  // A view option of the comparison shown, applied as it is switched: not one of the form's choices.
  const [showUnchanged, setShowUnchanged] = useState(false);
  const comparison = useComparison(projectId, compared, showUnchanged);
  const options: Option[] = (baselines.items ?? []).map((baseline) => ({
    label: `${baselineIdLabel(baseline.baseline_id)}: ${baseline.name}`,
    value: baseline.baseline_id,
  }));
  const differences = comparison.data?.pages.flatMap((page) => page.requirements) ?? [];
  const select = { control, options, isLoading: baselines.isLoading };

  return (
    <div>
      <div style={{ display: "flex", gap: token("space.200"), alignItems: "flex-end", flexWrap: "wrap" }}>
        <BaselineSelect {...select} label="Baseline 1" name="baseline1" />
        <BaselineSelect {...select} label="Baseline 2" name="baseline2" />
        <Button appearance="primary" isDisabled={!formState.isValid} onClick={() => void handleSubmit((pair) => setCompared(pair))()}>
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
  control,
  name,
  label,
  options,
  isLoading,
}: {
  control: Control<ComparisonFormValues, unknown, ComparedPair>;
  name: keyof ComparisonFormValues;
  label: string;
  options: Option[];
  isLoading: boolean;
}) {
  const inputId = useId();
  const { field } = useController({ control, name });
  return (
    <div style={{ minWidth: 240 }}>
      <Label htmlFor={inputId}>{label}</Label>
      <Select<Option>
        inputId={inputId}
        options={options}
        value={options.find((option) => option.value === field.value) ?? null}
        onChange={(option) => field.onChange(option?.value)}
        onBlur={field.onBlur}
        isLoading={isLoading}
      />
    </div>
  );
}
