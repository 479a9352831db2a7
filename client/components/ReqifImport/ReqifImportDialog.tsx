import { ErrorMessage, HelperMessage } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Select from "@atlaskit/select";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { useEffect, useState } from "react";
import { requirementTypeLabel } from "../../../common/labels.js";
import { IMPORT_FAILED_PREFIX, IMPORT_SUCCESS_MESSAGE } from "../../../common/schemas/csvImport.js";
import { prefixFor, type ReqifImportResult, type ReqifPreview, type ReqifTypeMapping } from "../../../common/schemas/reqif.js";
import { uploadImportFile, useStartImport } from "../../api/csv.js";
import { previewReqif, startReqifImport } from "../../api/reqif.js";
import { useRequirementTypes } from "../../api/requirementTypes.js";
import { isAbandoned } from "../../api/jobs.js";
import { useJob } from "../../hooks/useJob.js";
import { useAppActions, useNav } from "../../state/AppState.js";
import { useFlags } from "../Flags/Flags.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";

type Option = { label: string; value: number | "new" };
/** Where the import goes: a folder (null: the top level) and the folders above it. */
type Target = { folderId: number | null; ancestors: readonly number[] };

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
  const [target, setTarget] = useState<Target>({ folderId: nav?.folderId ?? null, ancestors: [] });
  const [mapping, setMapping] = useState<Record<string, ReqifTypeMapping>>({});
  const { status: job, follow } = useJob();
  const [isSubmitting, setSubmitting] = useState(false);

  useEffect(() => {
    let current = true;
    (async () => {
      const fileName = await uploadImportFile(file);
      const preview = await previewReqif(fileName);
      if (current) setUpload({ fileName, preview });
    })().catch((error: unknown) => current && setProblem(error instanceof Error ? error.message : String(error)));
    return () => {
      current = false;
    };
  }, [file]);

  const existing = types.data ?? [];
  const typeOptions: Option[] = [
    { label: "A new requirement type", value: "new" },
    ...existing.map((type) => ({ label: requirementTypeLabel(type), value: type.requirement_type_id })),
  ];
  /** The mapping shown for a spec object type: what the user chose, else the type of its name, else a new one. */
  const mappingOf = (identifier: string, longName: string): ReqifTypeMapping => {
    const chosen = mapping[identifier];
    if (chosen) return chosen;
    const same = existing.find((type) => type.name.trim().toLowerCase() === longName.trim().toLowerCase());
    return same ? { requirement_type_id: same.requirement_type_id } : { name: longName, prefix: prefixFor(longName) };
  };

  const submit = async () => {
    if (!upload) return;
    setSubmitting(true);
    try {
      const started = await startReqifImport({
        atlassian_project_id: projectId,
        file_name: upload.fileName,
        original_file_name: file.name,
        parent_folder_id: target.folderId,
        mapping: {
          spec_object_types: Object.fromEntries(
            upload.preview.spec_object_types.map((type) => [type.identifier, mappingOf(type.identifier, type.long_name)]),
          ),
        },
      });
      const end = await follow(started.job_id);
      if (end.status === "finished") {
        flags.success(IMPORT_SUCCESS_MESSAGE);
        await importer.refresh();
        if (target.folderId !== null) for (const folderId of [...target.ancestors, target.folderId]) setFolderOpen(folderId, true);
      } else {
        flags.error(`${IMPORT_FAILED_PREFIX}${end.error ?? ""}`);
      }
    } catch (error) {
      if (isAbandoned(error)) return;
      const message = error instanceof Error ? error.message : String(error);
      setProblem(message);
      flags.error(`${IMPORT_FAILED_PREFIX}${message}`);
    }
    setSubmitting(false);
  };

  const result = job?.status === "finished" ? (job.result as ReqifImportResult) : undefined;
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="large" shouldScrollInViewport>
      <ModalHeader>
        <ModalTitle>Import requirements from ReqIF</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <p>{file.name}</p>
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
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
                {upload.preview.spec_object_types.map((type) => {
                  const current = mappingOf(type.identifier, type.long_name);
                  const chosen = "requirement_type_id" in current ? current.requirement_type_id : "new";
                  return (
                    <tr key={type.identifier}>
                      <td>
                        {type.long_name}
                        <HelperMessage>{type.attribute_definitions.map((definition) => definition.long_name).join(", ")}</HelperMessage>
                      </td>
                      <td>
                        <Select<Option>
                          aria-label={`Requirement type for ${type.long_name}`}
                          options={typeOptions}
                          value={typeOptions.find((option) => option.value === chosen) ?? null}
                          isDisabled={isSubmitting}
                          onChange={(option) =>
                            setMapping({
                              ...mapping,
                              [type.identifier]:
                                option?.value === "new" || option === null
                                  ? { name: type.long_name, prefix: prefixFor(type.long_name) }
                                  : { requirement_type_id: option.value },
                            })
                          }
                        />
                      </td>
                      <td>
                        {"requirement_type_id" in current ? null : (
                          <Textfield
                            aria-label={`Prefix for ${type.long_name}`}
                            value={current.prefix ?? ""}
                            isDisabled={isSubmitting}
                            onChange={(event) =>
                              setMapping({ ...mapping, [type.identifier]: { ...current, prefix: event.currentTarget.value } })
                            }
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <h4 style={{ marginTop: token("space.200") }}>Import into</h4>
            <FolderPicker
              projectId={projectId}
              label="Import into"
              topLevelLabel="Top Level"
              restrictions={{ currentFolderId: undefined }}
              value={target.folderId}
              onChange={(folderId, ancestors) => setTarget({ folderId, ancestors })}
              isDisabled={isSubmitting}
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
