import Button from "@atlaskit/button/new";
import { Checkbox } from "@atlaskit/checkbox";
import { ErrorMessage, HelperMessage, Label } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Select from "@atlaskit/select";
import { token } from "@atlaskit/tokens";
import { zodResolver } from "@hookform/resolvers/zod";
import { Suspense, useId, useMemo, useState } from "react";
import { type Control, Controller, useController, useForm, useWatch } from "react-hook-form";
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
import { ImportTargetPicker } from "../../components/FolderPicker/ImportTargetPicker.js";
import { csvColumnValues, csvFileHeaders } from "./csvFileHeaders.js";
import { type ImportChoices, type ImportFormValues, importFormSchema, importRequest } from "./importForm.js";

const ReqifImportDialog = lazyNamed(() => import("../../components/ReqifImport/ReqifImportDialog.js"), "ReqifImportDialog");

type Option<T> = { label: string; value: T };
/** The component and status values of the file's rows. */
type FileValues = { components: string[]; status: string[] };
const NO_VALUES: FileValues = { components: [], status: [] };

/**
 * What the dialog has read of the chosen file (not the person's choices, which are the form's):
 * its header row, the values of its Component/s and Status columns, and for an .xlsx, uploaded when
 * chosen, its stored name and sheets; or why it could not be uploaded or read.
 */
type FileReading = {
  headers: string[];
  values: FileValues;
  workbook?: { fileName: string; sheets: string[] };
  problem?: string;
  isReading: boolean;
};
const NOTHING_READ: FileReading = { headers: [], values: NO_VALUES, isReading: false };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
  const { control, handleSubmit, setValue, setError, clearErrors, formState } = useForm<ImportFormValues, unknown, ImportChoices>({
    resolver: zodResolver(importFormSchema),
    defaultValues: {
      file: undefined,
      requirement_type: undefined,
      // The folder open on the screen, if any: its ancestors are open in the tree already (it was revealed there).
      location: nav?.folderId ?? null,
      ancestors: [],
      additional_headers: [],
      assign_based_on_component: false,
      left_out_columns: [],
      leave_out_unknown_names: false,
      sheet: null,
    },
  });
  const { isSubmitting, errors } = formState;
  const [reading, setReading] = useState<FileReading>(NOTHING_READ);
  const { status: job, follow, forget: forgetJob } = useJob();
  const [reqifFile, setReqifFile] = useState<File | undefined>();

  const isProject = projectId !== GLOBAL_PROJECT_ID;
  const types = useRequirementTypes();
  const attributes = useAttributes(projectId);
  const components = useProjectComponents(projectId);
  const statuses = useProjectStatuses(projectId);
  const importer = useStartImport(projectId);
  const projectKey = useProjects().data?.find((project) => project.id === projectId)?.key || "this project";
  // The file's components and statuses are matched against these lists: without them every row would be refused.
  const hostDataProblem = components.isError ? COMPONENTS_LOAD_ERROR : statuses.isError ? STATUSES_LOAD_ERROR : undefined;
  const sheet = useWatch({ control, name: "sheet" });

  const { headers, values: fileValues, workbook } = reading;
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

  /** The choices that name the file's columns start over with each file and sheet. */
  const forgetColumnChoices = () => {
    setValue("additional_headers", []);
    setValue("left_out_columns", []);
  };

  const readFile = async (chosen: File | undefined) => {
    clearErrors("root");
    forgetJob();
    forgetColumnChoices();
    setValue("leave_out_unknown_names", false);
    setValue("sheet", null);
    setReading(NOTHING_READ);
    // Issue 35: an .xlsx is read by the server, as the import job reads it: uploaded now, then previewed sheet by sheet.
    if (chosen && isXlsxFileName(chosen.name)) return showSheet(await uploadChosen(chosen), null);
    const fileHeaders = chosen ? await csvFileHeaders(chosen) : [];
    setReading({ ...NOTHING_READ, headers: fileHeaders });
    if (!chosen || !isProject) return;
    const columns = mapHeaders(fileHeaders, attributes.data ?? []);
    const values = await csvColumnValues(chosen, {
      components: columns.components,
      status: columns.status === undefined ? [] : [columns.status],
    });
    setReading({ ...NOTHING_READ, headers: fileHeaders, values });
  };

  const uploadChosen = async (chosen: File): Promise<string | undefined> => {
    setReading({ ...NOTHING_READ, isReading: true });
    try {
      return await uploadImportFile(chosen);
    } catch (error) {
      setReading({ ...NOTHING_READ, problem: messageOf(error) });
      return undefined;
    }
  };

  const showSheet = async (fileName: string | undefined, chosenSheet: string | null) => {
    if (fileName === undefined) return;
    setReading((read) => ({ ...read, problem: undefined, isReading: true }));
    forgetColumnChoices();
    try {
      const preview = await previewImportFile(fileName, chosenSheet);
      setReading({
        headers: preview.headers,
        values: isProject ? preview.values : NO_VALUES,
        workbook: { fileName, sheets: preview.sheets },
        isReading: false,
      });
      setValue("sheet", preview.sheet);
    } catch (error) {
      setReading({ ...NOTHING_READ, problem: messageOf(error) });
    }
  };

  const runImport = async (choices: ImportChoices) => {
    if (isXlsxFileName(choices.file.name) && !workbook) {
      setError("root", { message: reading.problem ?? "Choose an Excel workbook (.xlsx) that can be read" });
      return;
    }
    if (hostDataProblem) {
      setError("root", { message: hostDataProblem });
      return;
    }
    try {
      const fileName = workbook?.fileName ?? (await uploadImportFile(choices.file));
      const started = await importer.start(
        importRequest(choices, { fileName, projectId, components: components.data ?? [], statuses: statuses.data ?? [] }),
      );
      const end = await follow(started.job_id);
      if (end.status === "finished") {
        flags.success(IMPORT_SUCCESS_MESSAGE);
        await importer.refresh();
        // Open the way down to the target too, or a nested target's requirements stay hidden in a closed parent.
        if (choices.location !== null) for (const folderId of [...choices.ancestors, choices.location]) setFolderOpen(folderId, true);
        onClose();
        return;
      }
      flags.error(`${IMPORT_FAILED_PREFIX}${end.error ?? ""}`);
    } catch (error) {
      if (isAbandoned(error)) return;
      setError("root", { message: messageOf(error) });
      flags.error(`${IMPORT_FAILED_PREFIX}${messageOf(error)}`);
    }
  };
  const submit = handleSubmit(runImport, (invalid) => {
    // Spec section 8: the missing file is also told in an alert.
    if (invalid.file) window.alert(`${IMPORT_NO_FILE_MESSAGE}.`);
  });

  if (reqifFile) {
    return (
      <Suspense fallback={null}>
        <ReqifImportDialog projectId={projectId} file={reqifFile} onClose={onClose} />
      </Suspense>
    );
  }
  const running = job !== undefined && status !== "failed";
  const problem = errors.root?.message ?? reading.problem;
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="large" shouldScrollInViewport>
      <ModalHeader>
        <ModalTitle>Import requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <Label htmlFor={ids.file}>CSV, Excel or ReqIF file</Label>
        <Controller
          control={control}
          name="file"
          render={({ field, fieldState }) => (
            <>
              <input
                id={ids.file}
                name={field.name}
                type="file"
                accept=".csv,text/csv,.xlsx,.reqif,.reqifz"
                disabled={isSubmitting || reading.isReading}
                aria-invalid={fieldState.invalid}
                onChange={(event) => {
                  const chosen = event.target.files?.[0];
                  // A ReqIF file has its own steps (preview, type mapping).
                  if (chosen && isReqifFileName(chosen.name)) return setReqifFile(chosen);
                  field.onChange(chosen);
                  void readFile(chosen);
                }}
                onBlur={field.onBlur}
              />
              {fieldState.error ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
            </>
          )}
        />
        <HelperMessage>
          Name (or Summary) is required; ID (or Issue key), Description, Component/s, Status, Folder (a path such as "Parent / Child" below
          Import into) and custom field names are read too.
        </HelperMessage>
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        {reading.isReading ? <div role="status">Reading the workbook...</div> : null}
        {workbook && workbook.sheets.length > 1 ? (
          <>
            <Label htmlFor={ids.sheet}>Sheet</Label>
            <Select<Option<string>>
              shouldPreventEscapePropagation
              inputId={ids.sheet}
              options={workbook.sheets.map((name) => ({ label: name, value: name }))}
              value={sheet ? { label: sheet, value: sheet } : null}
              onChange={(option) => option && void showSheet(workbook.fileName, option.value)}
              isDisabled={isSubmitting || reading.isReading}
            />
          </>
        ) : null}

        <Label htmlFor={ids.type}>Requirement type (required)</Label>
        <Controller
          control={control}
          name="requirement_type"
          render={({ field, fieldState }) => (
            <>
              <Select<Option<number>>
                shouldPreventEscapePropagation
                inputId={ids.type}
                options={typeOptions}
                value={typeOptions.find((option) => option.value === field.value) ?? null}
                onChange={(option) => field.onChange(option?.value)}
                onBlur={field.onBlur}
                isLoading={types.isLoading}
                isDisabled={isSubmitting}
                isInvalid={fieldState.invalid}
              />
              {fieldState.error ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
            </>
          )}
        />

        <Controller
          control={control}
          name="location"
          render={({ field }) => (
            <ImportTargetPicker
              projectId={projectId}
              value={field.value}
              onChange={(folderId, ancestors) => {
                field.onChange(folderId);
                setValue("ancestors", ancestors);
              }}
              isDisabled={isSubmitting}
            />
          )}
        />

        {isProject ? (
          <Controller
            control={control}
            name="assign_based_on_component"
            render={({ field }) => (
              <Checkbox
                label="Assign each requirement to the assignee of its component"
                isChecked={field.value}
                isDisabled={isSubmitting}
                onChange={(event) => field.onChange(event.target.checked)}
              />
            )}
          />
        ) : null}

        {headers.length > 0 ? (
          <>
            <HeaderMapping
              control={control}
              headers={headers}
              mapping={mapping}
              attributes={attributes.data ?? []}
              isDisabled={isSubmitting}
            />
            <HostDataColumns
              control={control}
              mapping={mapping}
              isProject={isProject}
              projectKey={projectKey}
              unknown={unknown}
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
        // A file read without a Name column would only be refused by the job: the warning above says why Import waits.
        isDisabled={components.isLoading || statuses.isLoading || reading.isReading || (headers.length > 0 && mapping.name === undefined)}
        onConfirm={() => void submit()}
        onCancel={onClose}
      />
    </Modal>
  );
}

type ImportControl = Control<ImportFormValues, unknown, ImportChoices>;

function HeaderMapping({
  control,
  headers,
  mapping,
  attributes,
  isDisabled,
}: {
  control: ImportControl;
  headers: string[];
  mapping: ReturnType<typeof mapHeaders>;
  attributes: { attribute_id: number; name: string }[];
  isDisabled: boolean;
}) {
  const { field: keptHeaders } = useController({ control, name: "additional_headers" });
  const kept = keptHeaders.value ?? [];
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
              onChange={(event) => keptHeaders.onChange(event.target.checked ? [...kept, name] : kept.filter((item) => item !== name))}
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
  control,
  mapping,
  isProject,
  projectKey,
  unknown,
  isDisabled,
}: {
  control: ImportControl;
  mapping: ColumnMapping;
  isProject: boolean;
  projectKey: string;
  unknown: FileValues;
  isDisabled: boolean;
}) {
  const { field: leftOutColumns } = useController({ control, name: "left_out_columns" });
  const { field: leaveOutUnknown } = useController({ control, name: "leave_out_unknown_names" });
  const leftOut = leftOutColumns.value ?? [];
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
    leftOutColumns.onChange(checked ? [...leftOut, column] : leftOut.filter((item) => item !== column));
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
        isChecked={leaveOutUnknown.value ?? false}
        isDisabled={isDisabled}
        onChange={(event) => leaveOutUnknown.onChange(event.target.checked)}
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
