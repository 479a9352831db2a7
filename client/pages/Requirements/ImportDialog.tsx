import Button from "@atlaskit/button/new";
import { Checkbox } from "@atlaskit/checkbox";
import { ErrorMessage, HelperMessage, Label } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Select from "@atlaskit/select";
import { token } from "@atlaskit/tokens";
import { Suspense, useId, useMemo, useState } from "react";
import { type HeaderMapping as ColumnMapping, mapHeaders } from "../../../common/csvHeaders.js";
import { hostComponentsOf, hostStatusesOf, unknownNames } from "../../../common/importHostLists.js";
import { requirementTypeLabel } from "../../../common/labels.js";
import {
  IMPORT_FAILED_PREFIX,
  IMPORT_NO_FILE_MESSAGE,
  IMPORT_SUCCESS_MESSAGE,
  type ImportLeavableColumn,
  type ImportResult,
  isXlsxFileName,
  ROW_ERRORS_SHOWN_IN_DIALOG,
} from "../../../common/schemas/csvImport.js";
import { useAttributes } from "../../api/attributes.js";
import { previewImportFile, uploadImportFile, useStartImport } from "../../api/csv.js";
import { isAbandoned } from "../../api/jobs.js";
import { downloadStoredFile } from "../../api/reqif.js";
import { useJob } from "../../hooks/useJob.js";
import { useProjectComponents, useProjectStatuses } from "../../api/jira/index.js";
import { GLOBAL_PROJECT_ID, useProjects } from "../../api/projects.js";
import { useRequirementTypes } from "../../api/requirementTypes.js";
import { useFlags } from "../../components/Flags/Flags.js";
import { COMPONENTS_LOAD_ERROR, STATUSES_LOAD_ERROR } from "../../api/loadErrors.js";
import { isReqifFileName } from "../../../common/schemas/reqif.js";
import { lazyNamed } from "../../components/Lazy/lazyNamed.js";
import { useAppActions, useNav } from "../../state/AppState.js";
import { DialogFooter } from "../../components/FormDialog/FormDialog.js";
import { FolderPicker } from "../../components/FolderPicker/FolderPicker.js";
import { csvColumnValues, csvFileHeaders } from "./csvFileHeaders.js";

const ReqifImportDialog = lazyNamed(() => import("../../components/ReqifImport/ReqifImportDialog.js"), "ReqifImportDialog");

type Option<T> = { label: string; value: T };
/** The target folder (null: the top level) and the folders above it, outermost first. */
type ImportTarget = { folderId: number | null; ancestors: readonly number[] };
/** The component and status values of the file's rows. */
type FileValues = { components: string[]; status: string[] };
const NO_VALUES: FileValues = { components: [], status: [] };
/** An .xlsx uploaded when it was chosen (its preview is the server's): its stored name, its sheets and the one shown. */
type Workbook = { fileName: string; sheets: string[]; sheet: string | null };

/**
 * Import from CSV (spec sections 2, 5 and 8): pick a .csv, upload it (sign, then PUT), choose
 * the requirement type and the folder (at any depth) the requirements go into, see how the file's headers map, keep
 * other headers in the description, then follow the job every 2 s until it ends. Issue 35: an
 * .xlsx goes through the same mapping and job; it is uploaded when chosen and read by the server
 * (POST /api/import-issues/preview), which lists its sheets when there are several.
 */
export function ImportDialog({ projectId, onClose }: { projectId: number; onClose(): void }) {
  const flags = useFlags();
  const nav = useNav();
  const { setFolderOpen } = useAppActions();
  const ids = { file: useId(), type: useId(), sheet: useId() };
  const [file, setFile] = useState<File | undefined>();
  const [headers, setHeaders] = useState<string[]>([]);
  const [typeId, setTypeId] = useState<number | undefined>();
  // The folder open on the screen, if any: its ancestors are open in the tree already (it was revealed there).
  const [location, setLocation] = useState<ImportTarget>({ folderId: nav?.folderId ?? null, ancestors: [] });
  const [fileValues, setFileValues] = useState<FileValues>(NO_VALUES);
  const [leftOut, setLeftOut] = useState<ImportLeavableColumn[]>([]);
  const [leaveOutUnknown, setLeaveOutUnknown] = useState(false);
  const [kept, setKept] = useState<string[]>([]);
  const [assignByComponent, setAssignByComponent] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [typeMissing, setTypeMissing] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const { status: job, follow, forget: forgetJob } = useJob();
  const [reqifFile, setReqifFile] = useState<File | undefined>();
  const [workbook, setWorkbook] = useState<Workbook | undefined>();
  const [isPreviewing, setPreviewing] = useState(false);

  const isProject = projectId !== GLOBAL_PROJECT_ID;
  const types = useRequirementTypes();
  const attributes = useAttributes(projectId);
  const components = useProjectComponents(projectId);
  const statuses = useProjectStatuses(projectId);
  const importer = useStartImport(projectId);
  const projectKey = useProjects().data?.find((project) => project.id === projectId)?.key || "this project";
  // The file's components and statuses are matched against these lists: without them every row would be refused.
  const hostDataProblem = components.isError ? COMPONENTS_LOAD_ERROR : statuses.isError ? STATUSES_LOAD_ERROR : undefined;

  const mapping = useMemo(() => mapHeaders(headers, attributes.data ?? []), [headers, attributes.data]);
  const unknown = useMemo(
    () => ({
      components: unknownNames(fileValues.components, hostComponentsOf(components.data ?? [])),
      status: unknownNames(fileValues.status, hostStatusesOf(statuses.data ?? [])),
    }),
    [fileValues, components.data, statuses.data],
  );
  const typeOptions = (types.data ?? []).map((type) => ({ label: requirementTypeLabel(type), value: type.requirement_type_id }));

  const status = job?.status;
  const result = job?.result as ImportResult | null | undefined;

  const chooseFile = async (chosen: File | undefined) => {
    // A ReqIF file has its own steps (preview, type mapping).
    if (chosen && isReqifFileName(chosen.name)) return setReqifFile(chosen);
    setFile(chosen);
    setProblem(undefined);
    forgetJob();
    setKept([]);
    setLeftOut([]);
    setLeaveOutUnknown(false);
    setFileValues(NO_VALUES);
    setWorkbook(undefined);
    setHeaders([]);
    // Issue 35: an .xlsx is read by the server, as the import job reads it: uploaded now, then previewed sheet by sheet.
    if (chosen && isXlsxFileName(chosen.name)) return showSheet(await uploadChosen(chosen), null);
    const fileHeaders = chosen ? await csvFileHeaders(chosen) : [];
    setHeaders(fileHeaders);
    if (!chosen || !isProject) return;
    const columns = mapHeaders(fileHeaders, attributes.data ?? []);
    setFileValues(
      await csvColumnValues(chosen, {
        components: columns.components,
        status: columns.status === undefined ? [] : [columns.status],
      }),
    );
  };

  const uploadChosen = async (chosen: File): Promise<string | undefined> => {
    setPreviewing(true);
    try {
      return await uploadImportFile(chosen);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setPreviewing(false);
      return undefined;
    }
  };

  const showSheet = async (fileName: string | undefined, sheet: string | null) => {
    if (fileName === undefined) return;
    setPreviewing(true);
    setProblem(undefined);
    setKept([]);
    setLeftOut([]);
    try {
      const preview = await previewImportFile(fileName, sheet);
      setWorkbook({ fileName, sheets: preview.sheets, sheet: preview.sheet });
      setHeaders(preview.headers);
      setFileValues(isProject ? preview.values : NO_VALUES);
    } catch (error) {
      setWorkbook(undefined);
      setHeaders([]);
      setFileValues(NO_VALUES);
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setPreviewing(false);
    }
  };

  const submit = async () => {
    if (file && isXlsxFileName(file.name) && !workbook) {
      setProblem(problem ?? "Choose an Excel workbook (.xlsx) that can be read");
      return;
    }
    if (!file) {
      setProblem(IMPORT_NO_FILE_MESSAGE);
      window.alert(`${IMPORT_NO_FILE_MESSAGE}.`);
      return;
    }
    if (typeId === undefined) {
      setTypeMissing(true);
      return;
    }
    if (hostDataProblem) {
      setProblem(hostDataProblem);
      return;
    }
    setSubmitting(true);
    setProblem(undefined);
    try {
      const fileName = workbook?.fileName ?? (await uploadImportFile(file));
      const started = await importer.start({
        file_name: fileName,
        ...(workbook?.sheet ? { sheet: workbook.sheet } : {}),
        requirement_type: typeId,
        location: location.folderId,
        atlassian_project_id: projectId,
        atlassian_component_json: JSON.stringify(components.data ?? []),
        atlassian_statuses_json: JSON.stringify(statuses.data ?? []),
        additional_headers: kept,
        assign_based_on_component: assignByComponent,
        left_out_columns: leftOut,
        // Only as the person chose in the mapping step, where those values were named.
        leave_out_unknown_names: leaveOutUnknown,
      });
      const end = await follow(started.job_id);
      if (end.status === "finished") {
        flags.success(IMPORT_SUCCESS_MESSAGE);
        await importer.refresh();
        // Open the way down to the target too, or a nested target's requirements stay hidden in a closed parent.
        if (location.folderId !== null) for (const folderId of [...location.ancestors, location.folderId]) setFolderOpen(folderId, true);
        onClose();
        return;
      }
      flags.error(`${IMPORT_FAILED_PREFIX}${end.error ?? ""}`);
      setSubmitting(false);
    } catch (error) {
      if (isAbandoned(error)) return;
      const message = error instanceof Error ? error.message : String(error);
      setProblem(message);
      flags.error(`${IMPORT_FAILED_PREFIX}${message}`);
      setSubmitting(false);
    }
  };

  if (reqifFile) {
    return (
      <Suspense fallback={null}>
        <ReqifImportDialog projectId={projectId} file={reqifFile} onClose={onClose} />
      </Suspense>
    );
  }
  const running = job !== undefined && status !== "failed";
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="large" shouldScrollInViewport>
      <ModalHeader>
        <ModalTitle>Import requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <Label htmlFor={ids.file}>CSV, Excel or ReqIF file</Label>
        <input
          id={ids.file}
          type="file"
          accept=".csv,text/csv,.xlsx,.reqif,.reqifz"
          disabled={isSubmitting || isPreviewing}
          onChange={(event) => void chooseFile(event.target.files?.[0])}
        />
        <HelperMessage>
          Name (or Summary) is required; ID (or Issue key), Description, Component/s, Status, Folder (a path such as "Parent / Child" below
          Import into) and custom field names are read too.
        </HelperMessage>
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        {isPreviewing ? <div role="status">Reading the workbook...</div> : null}
        {workbook && workbook.sheets.length > 1 ? (
          <>
            <Label htmlFor={ids.sheet}>Sheet</Label>
            <Select<Option<string>>
              inputId={ids.sheet}
              options={workbook.sheets.map((name) => ({ label: name, value: name }))}
              value={workbook.sheet === null ? null : { label: workbook.sheet, value: workbook.sheet }}
              onChange={(option) => option && void showSheet(workbook.fileName, option.value)}
              isDisabled={isSubmitting || isPreviewing}
            />
          </>
        ) : null}

        <Label htmlFor={ids.type}>Requirement type (required)</Label>
        <Select<Option<number>>
          inputId={ids.type}
          options={typeOptions}
          value={typeOptions.find((option) => option.value === typeId) ?? null}
          onChange={(option) => {
            setTypeId(option?.value);
            setTypeMissing(false);
          }}
          isLoading={types.isLoading}
          isDisabled={isSubmitting}
          isInvalid={typeMissing}
        />
        {typeMissing ? <ErrorMessage>Required</ErrorMessage> : null}

        <h4 style={{ marginTop: token("space.200") }}>Import into</h4>
        <FolderPicker
          projectId={projectId}
          label="Import into"
          topLevelLabel="Top Level"
          restrictions={{ currentFolderId: undefined }}
          value={location.folderId}
          onChange={(folderId, ancestors) => setLocation({ folderId, ancestors })}
          isDisabled={isSubmitting}
        />

        {isProject ? (
          <Checkbox
            label="Assign each requirement to the assignee of its component"
            isChecked={assignByComponent}
            isDisabled={isSubmitting}
            onChange={(event) => setAssignByComponent(event.target.checked)}
          />
        ) : null}

        {headers.length > 0 ? (
          <>
            <HeaderMapping
              headers={headers}
              mapping={mapping}
              attributes={attributes.data ?? []}
              kept={kept}
              onKeep={setKept}
              isDisabled={isSubmitting}
            />
            <HostDataColumns
              mapping={mapping}
              isProject={isProject}
              projectKey={projectKey}
              unknown={unknown}
              leftOut={leftOut}
              onLeaveOut={setLeftOut}
              leaveOutUnknown={leaveOutUnknown}
              onLeaveOutUnknown={setLeaveOutUnknown}
              isDisabled={isSubmitting}
            />
          </>
        ) : null}

        {running ? (
          <div role="status" style={{ marginTop: token("space.200") }}>
            {job?.total_rows ? `Importing: ${job.completed_rows} of ${job.total_rows} rows` : "Starting the import..."}
            <progress
              max={job?.total_rows || 1}
              value={job?.completed_rows ?? 0}
              style={{ display: "block", width: "100%" }}
              aria-label="Import progress"
            />
          </div>
        ) : null}
        {status === "failed" && result?.errors?.length ? <RowErrors result={result} /> : null}
      </ModalBody>
      <DialogFooter
        label="Import"
        isSubmitting={isSubmitting}
        isDisabled={components.isLoading || statuses.isLoading || isPreviewing}
        onConfirm={() => void submit()}
        onCancel={onClose}
      />
    </Modal>
  );
}

function HeaderMapping({
  headers,
  mapping,
  attributes,
  kept,
  onKeep,
  isDisabled,
}: {
  headers: string[];
  mapping: ReturnType<typeof mapHeaders>;
  attributes: { attribute_id: number; name: string }[];
  kept: string[];
  onKeep(headers: string[]): void;
  isDisabled: boolean;
}) {
  const header = (column: number | undefined) => (column === undefined ? undefined : headers[column]);
  const known: [string, string | undefined][] = [
    ["Name", header(mapping.name)],
    ["ID", header(mapping.id)],
    ["Description", header(mapping.description)],
    ["Status", header(mapping.status)],
    ["Folder", header(mapping.folder)],
    [
      "Components",
      mapping.components.length
        ? `${header(mapping.components[0])} (${mapping.components.length} ${mapping.components.length === 1 ? "column" : "columns"})`
        : undefined,
    ],
    ...mapping.attributes.map(
      ({ attribute_id, column }) =>
        [attributes.find((field) => field.attribute_id === attribute_id)?.name ?? "", header(column)] as [string, string | undefined],
    ),
  ];
  return (
    <div style={{ marginTop: token("space.200") }}>
      <h4>Columns of the file</h4>
      {mapping.name === undefined ? (
        <SectionMessage appearance="warning">The file has no Name column (Name or Summary).</SectionMessage>
      ) : null}
      <table aria-label="Mapped columns">
        <tbody>
          {known
            .filter(([, column]) => column !== undefined)
            .map(([field, column]) => (
              <tr key={field}>
                <td>{field}</td>
                <td>← {column}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {mapping.additional.length > 0 ? (
        <fieldset style={{ border: "none", padding: 0 }}>
          <legend>Additional headers to keep (added to the description)</legend>
          {mapping.additional.map(({ header: name }) => (
            <Checkbox
              key={name}
              label={name}
              isChecked={kept.includes(name)}
              isDisabled={isDisabled}
              onChange={(event) => onKeep(event.target.checked ? [...kept, name] : kept.filter((item) => item !== name))}
            />
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/**
 * The file's Component/s and Status columns against the project's: Global Requirements have
 * neither, so they are left out; a project's unknown values are named, with the choice to leave
 * them out of their rows (the rows naming them are refused otherwise) or the whole column out.
 */
function HostDataColumns({
  mapping,
  isProject,
  projectKey,
  unknown,
  leftOut,
  onLeaveOut,
  leaveOutUnknown,
  onLeaveOutUnknown,
  isDisabled,
}: {
  mapping: ColumnMapping;
  isProject: boolean;
  projectKey: string;
  unknown: FileValues;
  leftOut: ImportLeavableColumn[];
  onLeaveOut(columns: ImportLeavableColumn[]): void;
  leaveOutUnknown: boolean;
  onLeaveOutUnknown(leaveOut: boolean): void;
  isDisabled: boolean;
}) {
  const hasComponents = mapping.components.length > 0;
  const hasStatus = mapping.status !== undefined;
  if (!isProject) {
    if (!hasComponents && !hasStatus) return null;
    return (
      <SectionMessage appearance="information">
        Global Requirements have no status or components: the file's Status and Component/s columns are left out.
      </SectionMessage>
    );
  }
  const leaveOut = (column: ImportLeavableColumn, checked: boolean) =>
    onLeaveOut(checked ? [...leftOut, column] : leftOut.filter((item) => item !== column));
  const warnings = [
    hasComponents && unknown.components.length > 0
      ? {
          column: "components" as const,
          text: `${unknown.components.length} ${plural(unknown.components.length, "component value is not a component", "component values are not components")} of ${projectKey}`,
          names: unknown.components,
          choice: "Leave out the Component/s columns",
        }
      : undefined,
    hasStatus && unknown.status.length > 0
      ? {
          column: "status" as const,
          text: `${unknown.status.length} ${plural(unknown.status.length, "status value is not a status", "status values are not statuses")} of ${projectKey}`,
          names: unknown.status,
          choice: "Leave out the Status column",
        }
      : undefined,
  ].filter((warning) => warning !== undefined);
  if (warnings.length === 0) return null;
  return (
    <>
      {warnings.map((warning) => (
        <SectionMessage key={warning.column} appearance="warning">
          <p>
            {warning.text}: {warning.names.join(", ")}.
          </p>
          <Checkbox
            label={warning.choice}
            isChecked={leftOut.includes(warning.column)}
            isDisabled={isDisabled}
            onChange={(event) => leaveOut(warning.column, event.target.checked)}
          />
        </SectionMessage>
      ))}
      <Checkbox
        label="Leave these values out of their rows and import the rest"
        isChecked={leaveOutUnknown}
        isDisabled={isDisabled}
        onChange={(event) => onLeaveOutUnknown(event.target.checked)}
      />
    </>
  );
}

function RowErrors({ result }: { result: ImportResult }) {
  const flags = useFlags();
  const shown = result.errors.slice(0, ROW_ERRORS_SHOWN_IN_DIALOG);
  const { errors_file: errorsFile } = result;
  return (
    <SectionMessage appearance="error" title="Nothing was imported. Fix these rows and import the file again.">
      <ul aria-label="Row errors">
        {shown.map((error) => (
          <li key={`${error.row}-${error.reason}`}>
            Row {error.row}: {error.reason}
          </li>
        ))}
      </ul>
      {result.error_count > shown.length ? <p>and {result.error_count - shown.length} more</p> : null}
      {errorsFile ? (
        <Button
          appearance="subtle"
          onClick={() =>
            void downloadStoredFile(errorsFile).catch((error: unknown) =>
              flags.error(error instanceof Error ? error.message : String(error)),
            )
          }
        >
          Download all {result.error_count} row errors (CSV)
        </Button>
      ) : null}
    </SectionMessage>
  );
}
