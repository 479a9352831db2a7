import Select from "@atlaskit/select";
import Spinner from "@atlaskit/spinner";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useUser } from "../../api/user.js";
import { HOST_DATA_ERROR } from "../../api/jira/hostData.js";
import { lookupIssues } from "../../api/jira/issues.js";
import { type JiraIssueType, useIssueTypes } from "../../api/jira/projectData.js";
import { useMatrix } from "../../api/matrix.js";
import { useHost } from "../../host/index.js";
import { useAppState } from "../../state/AppState.js";
import { ExportMenu } from "./ExportMenu.js";
import { MatrixGrid } from "./MatrixGrid.js";
import { EMPTY_MATRIX_TEXT, filterRows, linkedIssueIds, loadHiddenColumns, NO_HITS_TEXT, saveHiddenColumns } from "./matrixView.js";

/** /traceability-matrix: requirements against the project's issue types. */
export function TraceabilityMatrixPage() {
  const { projectId } = useAppState();
  if (projectId === undefined) return null;
  return <MatrixScreen key={projectId} projectId={projectId} />;
}

type ColumnOption = { label: string; value: string };

function MatrixScreen({ projectId }: { projectId: number }) {
  const host = useHost();
  const matrix = useMatrix(projectId);
  const issueTypes = useIssueTypes(projectId);
  const user = useUser();
  const [filter, setFilter] = useState("");
  const [hidden, setHidden] = useState<string[]>(() => loadHiddenColumns(localStorage, projectId));

  const rows = matrix.data?.rows ?? [];
  const issueIds = useMemo(() => linkedIssueIds(matrix.data?.rows ?? []), [matrix.data]);
  // Only the issues the matrix names, 50 ids a search with 10 searches in flight (spec section 9).
  const issues = useQuery({
    queryKey: ["jira", "issues", "matrix", projectId, matrix.dataUpdatedAt],
    queryFn: () => lookupIssues(host, issueIds),
    enabled: issueIds.length > 0,
    retry: false,
  });
  const visibleRows = useMemo(() => filterRows(rows, filter), [rows, filter]);
  const columns: JiraIssueType[] = (issueTypes.data ?? []).filter((type) => !hidden.includes(type.id));
  const options: ColumnOption[] = (issueTypes.data ?? []).map((type) => ({ label: type.name, value: type.id }));

  const showColumns = (shown: readonly ColumnOption[]) => {
    const shownIds = new Set(shown.map((option) => option.value));
    const next = options.filter((option) => !shownIds.has(option.value)).map((option) => option.value);
    setHidden(next);
    saveHiddenColumns(localStorage, projectId, next);
  };

  if (matrix.isPending) return <Spinner size="large" label="Loading the traceability matrix" />;
  // Spec section 8: matrix load failures are only logged.
  if (matrix.isError) {
    console.error("The traceability matrix could not be loaded", matrix.error);
    return null;
  }
  if (rows.length === 0) return <p>{EMPTY_MATRIX_TEXT}</p>;

  return (
    <div>
      <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: token("space.100"), marginBottom: token("space.200") }}>
        <div style={{ width: 280 }}>
          <Textfield
            aria-label="Filter requirements"
            placeholder="Filter requirements"
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
        </div>
        <div style={{ minWidth: 320, flexGrow: 1, maxWidth: 640 }}>
          <Select<ColumnOption, true>
            inputId="matrix-columns-select"
            aria-label="Hide/show columns"
            placeholder="Hide/show columns"
            isMulti
            isLoading={issueTypes.isPending}
            options={options}
            value={options.filter((option) => !hidden.includes(option.value))}
            onChange={(value) => showColumns(value)}
            closeMenuOnSelect={false}
            menuPortalTarget={document.body}
          />
        </div>
        <ExportMenu projectId={projectId} issueTypeIds={columns.map((type) => type.id)} />
      </div>
      {issueTypes.isError || issues.isError ? <p role="alert">{HOST_DATA_ERROR}</p> : null}
      {visibleRows.length === 0 ? (
        <p>{NO_HITS_TEXT}</p>
      ) : (
        <MatrixGrid
          rows={visibleRows}
          requirementTypes={matrix.data.requirement_types}
          headings={matrix.data.header_row}
          issueTypes={columns}
          issues={issues.data}
          issuesLoading={issues.isFetching}
          siteUrl={user.data?.atlassian_base_url ?? ""}
        />
      )}
    </div>
  );
}
