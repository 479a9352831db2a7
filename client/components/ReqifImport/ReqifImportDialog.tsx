import { ErrorMessage, HelperMessage } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Select from "@atlaskit/select";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useState } from "react";
import { type Control, Controller, useForm, useWatch } from "react-hook-form";
import { requirementTypeLabel } from "../../../common/labels.js";
import { IMPORT_FAILED_PREFIX, IMPORT_SUCCESS_MESSAGE } from "../../../common/schemas/csvImport.js";
import { prefixFor, type ReqifImportResult, type ReqifPreview } from "../../../common/schemas/reqif.js";
import { uploadImportFile, useStartImport } from "../../api/csv.js";
import { previewReqif, startReqifImport } from "../../api/reqif.js";
import { useRequirementTypes } from "../../api/requirementTypes.js";
import { isAbandoned } from "../../api/jobs.js";
import { useJob } from "../../hooks/useJob.js";
import { useAppActions, useNav } from "../../state/AppState.js";
import { useFlags } from "../Flags/Flags.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { ImportTargetPicker } from "../FolderPicker/ImportTargetPicker.js";
import {
  NEW_TYPE,
  type ReqifImportChoices,
  type ReqifImportFormValues,
  reqifImportDefaults,
  reqifImportFormSchema,
  reqifImportRequest,
} from "./reqifImportForm.js";

type Option = { label: string; value: number | typeof NEW_TYPE };
type ImportControl = Control<ReqifImportFormValues, unknown, ReqifImportChoices>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Import from ReqIF (.reqif, or a .reqifz with attachments): the file is uploaded and read first
 * (its specifications, object types and how many objects and relations it holds), each object
 * type is mapped onto a requirement type (the one of its name, or a new one whose prefix can be
 * changed), then the import runs as a job whose progress is shown, and its result is summed up.
 */
export function ReqifImportDialog({ projectId, file, onClose }: { projectId: number; file: File; onClose(): void }) {
  const flags = useFlags();
  const nav = useNav();
  const { setFolderOpen } = useAppActions();
  const types = useRequirementTypes();
  const importer = useStartImport(projectId);
  const [upload, setUpload] = useState<{ fileName: string; preview: ReqifPreview } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const { status: job, follow } = useJob();

  const folderId = nav?.folderId ?? null;
  const existing = types.data;
  // The choices start from the preview and the requirement types of their names; what the person changed is kept when either arrives later.
  const values = useMemo(() => upload && reqifImportDefaults(upload.preview, existing ?? [], folderId), [upload, existing, folderId]);
  const { control, handleSubmit, setValue, setError, formState } = useForm<ReqifImportFormValues, unknown, ReqifImportChoices>({
    resolver: zodResolver(reqifImportFormSchema),
    defaultValues: { types: [], parent_folder_id: folderId, ancestors: [] },
    values,
    resetOptions: { keepDirtyValues: true },
  });
  const { isSubmitting, errors } = formState;

  useEffect(() => {
    let current = true;
    (async () => {
      const fileName = await uploadImportFile(file);
      const preview = await previewReqif(fileName);
      if (current) setUpload({ fileName, preview });
    })().catch((error: unknown) => current && setProblem(messageOf(error)));
    return () => {
      current = false;
    };
  }, [file]);

  const typeOptions: Option[] = [
    { label: "A new requirement type", value: NEW_TYPE },
    ...(existing ?? []).map((type) => ({ label: requirementTypeLabel(type), value: type.requirement_type_id })),
  ];

  const runImport = async (choices: ReqifImportChoices) => {
    if (!upload) return;
    try {
      const started = await startReqifImport(
        reqifImportRequest(choices, { projectId, fileName: upload.fileName, originalFileName: file.name }),
      );
      const end = await follow(started.job_id);
      if (end.status === "finished") {
        flags.success(IMPORT_SUCCESS_MESSAGE);
        await importer.refresh();
        if (choices.parent_folder_id !== null) {
          for (const opened of [...choices.ancestors, choices.parent_folder_id]) setFolderOpen(opened, true);
        }
      } else {
        flags.error(`${IMPORT_FAILED_PREFIX}${end.error ?? ""}`);
      }
    } catch (error) {
      if (isAbandoned(error)) return;
      setError("root", { message: messageOf(error) });
      flags.error(`${IMPORT_FAILED_PREFIX}${messageOf(error)}`);
    }
  };
  const submit = handleSubmit(runImport);

  const result = job?.status === "finished" ? (job.result as ReqifImportResult) : undefined;
  const shownProblem = problem ?? errors.root?.message;
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="large" shouldScrollInViewport>
      <ModalHeader>
        <ModalTitle>Import requirements from ReqIF</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <p>{file.name}</p>
        {shownProblem ? <ErrorMessage>{shownProblem}</ErrorMessage> : null}
        {!upload && !problem ? <p role="status">Reading the file...</p> : null}
        {upload ? (
          <>
            <p>
              {upload.preview.object_count} objects and {upload.preview.relation_count} relations in{" "}
              {upload.preview.specifications
                .map((specification) => `${specification.long_name} (${specification.object_count})`)
                .join(", ") || "no specification"}
            </p>
            <table aria-label="Object types">
              <thead>
                <tr>
                  <th>Object type</th>
                  <th>Requirement type</th>
                  <th>Prefix of a new type</th>
                </tr>
              </thead>
              <tbody>
                {upload.preview.spec_object_types.map((type, index) => (
                  <ObjectTypeRow
                    key={type.identifier}
                    control={control}
                    index={index}
                    objectType={type}
                    typeOptions={typeOptions}
                    onNewType={() => setValue(`types.${index}.prefix`, prefixFor(type.long_name))}
                    isDisabled={isSubmitting}
                  />
                ))}
              </tbody>
            </table>
            <Controller
              control={control}
              name="parent_folder_id"
              render={({ field }) => (
                <ImportTargetPicker
                  projectId={projectId}
                  value={field.value}
                  onChange={(chosen, ancestors) => {
                    field.onChange(chosen);
                    // Kept, as the folder is, when the choices' defaults arrive again (see `values`).
                    setValue("ancestors", ancestors, { shouldDirty: true });
                  }}
                  isDisabled={isSubmitting}
                />
              )}
            />
          </>
        ) : null}
        {job && !result && job.status !== "failed" ? (
          <div role="status" style={{ marginTop: token("space.200") }}>
            {job.total_rows ? `Importing: ${job.completed_rows} of ${job.total_rows} objects and relations` : "Starting the import..."}
            <progress
              max={job.total_rows || 1}
              value={job.completed_rows}
              style={{ display: "block", width: "100%" }}
              aria-label="Import progress"
            />
          </div>
        ) : null}
        {job?.status === "failed" ? (
          <SectionMessage appearance="error" title="Nothing was imported">
            {job.error}
          </SectionMessage>
        ) : null}
        {result ? <ImportSummary result={result} /> : null}
      </ModalBody>
      <DialogFooter
        label={result ? "Done" : "Import"}
        isSubmitting={isSubmitting}
        isDisabled={!upload}
        onConfirm={() => (result ? onClose() : void submit())}
        onCancel={onClose}
      />
    </Modal>
  );
}

/** One spec object type of the file: the requirement type it goes onto, and a new type's prefix; it watches only its own choice. */
function ObjectTypeRow({
  control,
  index,
  objectType,
  typeOptions,
  onNewType,
  isDisabled,
}: {
  control: ImportControl;
  index: number;
  objectType: ReqifPreview["spec_object_types"][number];
  typeOptions: Option[];
  onNewType(): void;
  isDisabled: boolean;
}) {
  const chosen = useWatch({ control, name: `types.${index}.requirement_type` });
  return (
    <tr>
      <td>
        {objectType.long_name}
        <HelperMessage>{objectType.attribute_definitions.map((definition) => definition.long_name).join(", ")}</HelperMessage>
      </td>
      <td>
        <Controller
          control={control}
          name={`types.${index}.requirement_type`}
          render={({ field }) => (
            <Select<Option>
              shouldPreventEscapePropagation
              aria-label={`Requirement type for ${objectType.long_name}`}
              options={typeOptions}
              value={typeOptions.find((option) => option.value === field.value) ?? null}
              isDisabled={isDisabled}
              onChange={(option) => {
                const value = option?.value ?? NEW_TYPE;
                // A new type starts from the prefix made from its name each time it is chosen.
                if (value === NEW_TYPE) onNewType();
                field.onChange(value);
              }}
            />
          )}
        />
      </td>
      <td>
        {chosen === NEW_TYPE ? (
          <Controller
            control={control}
            name={`types.${index}.prefix`}
            render={({ field, fieldState }) => (
              <>
                <Textfield
                  aria-label={`Prefix for ${objectType.long_name}`}
                  value={field.value}
                  isDisabled={isDisabled}
                  isInvalid={fieldState.invalid}
                  onChange={(event) => field.onChange(event.currentTarget.value)}
                  onBlur={field.onBlur}
                />
                {fieldState.error ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
              </>
            )}
          />
        ) : null}
      </td>
    </tr>
  );
}

function ImportSummary({ result }: { result: ReqifImportResult }) {
  const notLinked = [...result.relations_skipped, ...result.not_imported];
  return (
    <SectionMessage appearance={notLinked.length > 0 ? "warning" : "success"} title="Imported">
      <p>
        {result.requirements_created} requirements created, {result.requirements_updated} updated, {result.folders_created} folders created,{" "}
        {result.links_created} links created.
      </p>
      {notLinked.length > 0 ? (
        <ul aria-label="Not imported as such">
          {notLinked.map((entry) => (
            <li key={`${entry.identifier}-${entry.reason}`}>
              {entry.identifier}: {entry.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </SectionMessage>
  );
}
