import { token } from "@atlaskit/tokens";
import { Bar, BarChart, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { CoverageBar } from "./coverageBars.js";

const BAR_HEIGHT = 28;

/**
 * Covered and uncovered requirements per figure as stacked bars, in the Atlaskit chart colours.
 * Its own module, loaded when a coverage view first shows: the chart library is not part of any
 * first screen (issue 39's budgets).
 */
export function CoverageChart({ bars }: { bars: readonly CoverageBar[] }) {
  const text = { fill: token("color.text.subtle"), fontSize: 12 };
  return (
    <figure aria-label="Coverage chart" style={{ margin: 0 }}>
      <BarChart
        width={520}
        height={bars.length * BAR_HEIGHT + 70}
        data={bars.map((bar) => ({ label: bar.label, Covered: bar.covered, Uncovered: bar.uncovered }))}
        layout="vertical"
        margin={{ left: 8, right: 16 }}
      >
        <XAxis type="number" allowDecimals={false} tick={text} />
        <YAxis type="category" dataKey="label" width={220} tick={text} />
        <Tooltip />
        <Legend />
        <Bar dataKey="Covered" stackId="requirements" fill={token("color.chart.success.bold")} isAnimationActive={false} />
        <Bar dataKey="Uncovered" stackId="requirements" fill={token("color.chart.danger")} isAnimationActive={false} />
      </BarChart>
    </figure>
  );
}
