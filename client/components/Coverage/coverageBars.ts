import type { Coverage, Uncovered } from "../../api/coverage.js";

/** One figure of a coverage view: how many of how many are covered, and which list holds the others. */
export type CoverageBar = { label: string; covered: number; uncovered: number; of: number; list: Uncovered };

/** The bars the figures and the chart show, in this order: linked issues first, then each level by the next. */
export function coverageBars(coverage: Coverage): CoverageBar[] {
  return [
    {
      label: "With a linked issue",
      covered: coverage.with_issues,
      uncovered: coverage.requirements - coverage.with_issues,
      of: coverage.requirements,
      list: "issues",
    },
    ...coverage.levels.map((level) => ({
      label: `Level ${level.level} covered by level ${level.level + 1}`,
      covered: level.covered_by_next_level,
      uncovered: level.requirements - level.covered_by_next_level,
      of: level.requirements,
      list: "next_level" as const,
    })),
  ];
}

/** A share as a whole percentage; none of nothing is 0 %. */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 100);
}
