import { token } from "@atlaskit/tokens";
import { useQueries } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { requirementIdLabel } from "../../../common/labels.js";
import { BASELINE_ROWS_PAGE, type Baseline, type BaselineRevision, baselineKeys, fetchBaselinePage } from "../../api/baselines.js";

export const NO_REQUIREMENTS_TEXT = "No requirements in baseline";
const ROW_HEIGHT = 32;
const TABLE_HEIGHT = 480;

const cell = {
  padding: `0 ${token("space.100")}`,
  height: ROW_HEIGHT,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
  textAlign: "left",
  borderBottom: `1px solid ${token("color.border")}`,
} as const;

/**
 * The requirements a baseline froze (ID and Name), virtualised: only the rows in view exist in
 * the page (spacer rows stand for the others), and only the API pages that hold them are
 * fetched, so 100,000 rows scroll like 100.
 */
export function BaselineRequirementTable({ projectId, baseline }: { projectId: number; baseline: Baseline }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = baseline.requirement_count;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const firstPage = Math.floor((items[0]?.index ?? 0) / BASELINE_ROWS_PAGE);
  const lastPage = Math.floor((items[items.length - 1]?.index ?? 0) / BASELINE_ROWS_PAGE);
  const pageNumbers = count === 0 ? [] : Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);
  const pages = useQueries({
    queries: pageNumbers.map((page) => ({
      queryKey: baselineKeys.page(baseline.baseline_id, page * BASELINE_ROWS_PAGE),
      queryFn: () => fetchBaselinePage(projectId, baseline.baseline_id, page * BASELINE_ROWS_PAGE),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const rowAt = (index: number): BaselineRevision | undefined => {
    const page = Math.floor(index / BASELINE_ROWS_PAGE);
    return pages[page - firstPage]?.data?.[index - page * BASELINE_ROWS_PAGE];
  };

  if (count === 0) return <p>{NO_REQUIREMENTS_TEXT}</p>;
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <div ref={scrollRef} style={{ maxHeight: TABLE_HEIGHT, overflow: "auto" }}>
      <table
        aria-label="Requirements in baseline"
        aria-rowcount={count + 1}
        style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed" }}
      >
        <thead style={{ position: "sticky", top: 0, background: token("elevation.surface") }}>
          <tr>
            <th style={{ ...cell, width: "30%" }}>ID</th>
            <th style={cell}>Name</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <tr style={{ height: before }} /> : null}
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <tr key={item.key} aria-rowindex={item.index + 2}>
                <td style={cell}>{row ? requirementIdLabel(row) : "…"}</td>
                <td style={cell}>{row?.name ?? ""}</td>
              </tr>
            );
          })}
          {after > 0 ? <tr style={{ height: after }} /> : null}
        </tbody>
      </table>
    </div>
  );
}
