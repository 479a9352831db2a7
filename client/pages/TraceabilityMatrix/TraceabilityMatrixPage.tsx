import Checkbox from "@atlaskit/checkbox";
import Select from "@atlaskit/select";
import Spinner from "@atlaskit/spinner";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { useEffect, useRef, useState } from "react";
import { filterWords } from "../../../common/constants.js";
import { pageStorage } from "../../api/pageStorage.js";
import { useCurrentUser } from "../../api/user.js";
import { HOST_DATA_ERROR } from "../../api/jira/hostData.js";
import { type JiraIssueType, useIssueTypes } from "../../api/jira/projectData.js";
import { type MatrixFilter, NO_MATRIX_FILTER, useMatrixStart } from "../../api/matrix.js";
import { CoverageFigures } from "../../components/Coverage/CoverageFigures.js";
import { setUncoveredFilter } from "../../components/UncoveredFilter/uncoveredFilterStore.js";
import { useAppActions, useProjectId } from "../../state/AppState.js";
import { ExportMenu } from "./ExportMenu.js";
import { MatrixGrid } from "./MatrixGrid.js";
import { EMPTY_MATRIX_TEXT, loadHiddenColumns, NO_HITS_TEXT, saveHiddenColumns } from "./matrixView.js";

/** The filter is asked of the server once typing pauses this long, not at every keystroke. */
const FILTER_PAUSE_MS = 250;

/** /traceability-matrix: requirements against the project's issue types. */
export function TraceabilityMatrixPage() {
  const projectId = useProjectId();
  if (projectId === undefined) return null;
  return <MatrixScreen key={projectId} projectId={projectId} />;
}

type ColumnOption = { label: string; value: string };

function MatrixScreen({ projectId }: { projectId: number }) {
  const issueTypes = useIssueTypes(projectId);
  const user = useCurrentUser();
  const { navigate } = useAppActions();
  const [filter, setFilter] = useState("");
  // The server filters (issue 37): the words, normalised, once typing pauses.
  const [appliedFilter, setAppliedFilter] = useState("");
  useEffect(() => {
    const words = filterWords(filter).join(" ");
    const timer = setTimeout(() => setAppliedFilter(words), FILTER_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [filter]);
  const [suspectOnly, setSuspectOnly] = useState(false);
  const matrix = useMatrixStart(projectId, { words: appliedFilter, suspect: suspectOnly });
  // While a new filter's first window is on its way the grid keeps showing the last answered filter.
  const answeredFilter = useRef<MatrixFilter>(NO_MATRIX_FILTER);
  if (!matrix.isPlaceholderData && matrix.data) answeredFilter.current = { words: appliedFilter, suspect: suspectOnly };
  const shownFilter = answeredFilter.current;
  const [hidden, setHidden] = useState<string[]>(() => loadHiddenColumns(pageStorage("localStorage"), projectId));
  const columns: JiraIssueType[] = (issueTypes.data ?? []).filter((type) => !hidden.includes(type.id));
  const options: ColumnOption[] = (issueTypes.data ?? []).map((type) => ({ label: type.name, value: type.id }));

  const showColumns = (shown: readonly ColumnOption[]) => {
    const shownIds = new Set(shown.map((option) => option.value));
    const next = options.filter((option) => !shownIds.has(option.value)).map((option) => option.value);
    setHidden(next);
    saveHiddenColumns(pageStorage("localStorage"), projectId, next);
  };

  if (matrix.isPending) return <Spinner size="large" label="Loading the traceability matrix" />;
  // Spec section 8: matrix load failures are only logged.
  if (matrix.isError) {
    console.error("The traceability matrix could not be loaded", matrix.error);
    return null;
  }
  if (matrix.data.total_rows === 0 && shownFilter.words === "" && !shownFilter.suspect) return <p>{EMPTY_MATRIX_TEXT}</p>;

  return (
    <div>
      <CoverageFigures
        scope={{ projectId }}
        onOpenUncovered={(uncovered) => {
          setUncoveredFilter({ projectId, uncovered });
          navigate({ projectId, tab: "requirements" });
        }}
      />
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
        <Checkbox label="Suspect links only" isChecked={suspectOnly} onChange={(event) => setSuspectOnly(event.currentTarget.checked)} />
        <ExportMenu projectId={projectId} issueTypeIds={columns.map((type) => type.id)} />
      </div>
      {issueTypes.isError ? <p role="alert">{HOST_DATA_ERROR}</p> : null}
      {matrix.data.total_rows === 0 ? (
        <p>{NO_HITS_TEXT}</p>
      ) : (
        <MatrixGrid
          key={`${shownFilter.suspect}|${shownFilter.words}`}
          projectId={projectId}
          filter={shownFilter}
          totalRows={matrix.data.total_rows}
          requirementTypes={matrix.data.requirement_types}
          headings={matrix.data.header_row}
          issueTypes={columns}
          siteUrl={user.data?.atlassian_base_url ?? ""}
        />
      )}
    </div>
  );
}
