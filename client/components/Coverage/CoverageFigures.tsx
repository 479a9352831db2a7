import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { type ReactNode, Suspense } from "react";
import { type CoverageScope, type Uncovered, useCoverage } from "../../api/coverage.js";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import { UNCOVERED_LABELS } from "../UncoveredFilter/UncoveredFilter.js";
import { coverageBars, percentOf } from "./coverageBars.js";

const CoverageChart = lazyNamed(() => import("./CoverageChart.js"), "CoverageChart");

/**
 * Issue 34: the coverage of a project or of a folder's subtree, as figures and a bar chart. Each
 * figure's uncovered count opens the tree filtered to those requirements (`onOpenUncovered`).
 */
export function CoverageFigures({ scope, onOpenUncovered }: { scope: CoverageScope; onOpenUncovered(uncovered: Uncovered): void }) {
  const coverage = useCoverage(scope);
  if (coverage.isPending) return <Spinner size="small" label="Loading coverage" />;
  if (coverage.isError) return <p role="alert">{`Coverage could not be loaded: ${coverage.error.message}`}</p>;
  const bars = coverageBars(coverage.data);
  return (
    <section aria-label="Coverage" style={{ marginBlock: token("space.200") }}>
      <Heading size="small" as="h3">
        Coverage
      </Heading>
      <div style={{ display: "flex", flexWrap: "wrap", gap: token("space.400"), alignItems: "flex-start" }}>
        <dl
          style={{
            display: "grid",
            gridTemplateColumns: "auto auto auto",
            gap: `${token("space.050")} ${token("space.200")}`,
            margin: 0,
            alignItems: "center",
          }}
        >
          <Figure label="Requirements" value={String(coverage.data.requirements)} />
          {bars.map((bar) => (
            <Figure key={bar.label} label={bar.label} value={`${bar.covered} of ${bar.of} (${percentOf(bar.covered, bar.of)} %)`}>
              <Button appearance="subtle" spacing="compact" isDisabled={bar.uncovered === 0} onClick={() => onOpenUncovered(bar.list)}>
                {`${UNCOVERED_LABELS[bar.list]}: ${bar.uncovered}`}
              </Button>
            </Figure>
          ))}
          <Figure label="Linked issues done" value={String(coverage.data.issues_done)} />
        </dl>
        {coverage.data.requirements > 0 ? (
          <Suspense fallback={<Spinner size="small" label="Loading the coverage chart" />}>
            <CoverageChart bars={bars} />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <>
      <dt style={{ color: token("color.text.subtle") }}>{label}</dt>
      <dd style={{ margin: 0, fontWeight: token("font.weight.semibold") }}>{value}</dd>
      <dd style={{ margin: 0 }}>{children}</dd>
    </>
  );
}
