import { Checkbox } from "@atlaskit/checkbox";
import { ErrorMessage } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import Select from "@atlaskit/select";
import { token } from "@atlaskit/tokens";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useBaselines } from "../../api/baselines.js";
import { downloadExport, startReqifExport } from "../../api/reqif.js";
import { isAbandoned } from "../../api/jobs.js";
import { useJob } from "../../hooks/useJob.js";
import { useNav } from "../../state/AppState.js";
import { useFlags } from "../Flags/Flags.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";
import {
  REQIF_EXPORT_SCOPES,
  type ReqifExportChoices,
  type ReqifExportFormValues,
  reqifExportFormSchema,
  reqifExportRequest,
} from "./reqifExportForm.js";

const SCOPE_LABELS: Record<(typeof REQIF_EXPORT_SCOPES)[number], string> = {
  project: "The whole project",
  folder: "A folder and everything in it",
  baseline: "A baseline",
};

/**
 * Export as ReqIF: the project, a folder with its subtree, or a baseline, with or without the
 * attachments (a .reqifz), as a job whose progress is shown; the file downloads when it is ready.
 */
export function ReqifExportDialog({ projectId, formatField, onClose }: { projectId: number; formatField: ReactNode; onClose(): void }) {
  const flags = useFlags();
  const nav = useNav();
  const baselines = useBaselines(projectId);
  const { control, handleSubmit, formState } = useForm<ReqifExportFormValues, unknown, ReqifExportChoices>({
    resolver: zodResolver(reqifExportFormSchema),
    defaultValues: {
      scope: nav?.folderId ? "folder" : "project",
      folder_id: nav?.folderId ?? null,
      baseline_id: null,
      include_attachments: false,
    },
    // The folder or baseline a scope needs is asked for as soon as the scope is chosen.
    mode: "onChange",
  });
  const { isSubmitting, isValid, errors } = formState;
  const scope = useWatch({ control, name: "scope" });
  const { status: job, follow } = useJob();

  const runExport = async (choices: ReqifExportChoices) => {
    try {
      const started = await startReqifExport(reqifExportRequest(choices, projectId));
      const end = await follow(started.job_id);
      if (end.status !== "finished") throw new Error(end.error ?? "The export failed");
      const name = await downloadExport(end);
      flags.success(`Exported ${name}`);
      onClose();
    } catch (error) {
      if (isAbandoned(error)) return;
      flags.error(`There was a problem retrieving your requirements export: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const submit = handleSubmit(runExport);

  const baselineOptions = (baselines.items ?? []).map((baseline) => ({ label: baseline.name, value: baseline.baseline_id }));
  const scopeProblem = errors.folder_id?.message ?? errors.baseline_id?.message;
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="medium">
      <ModalHeader>
        <ModalTitle>Export requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        {formatField}
        <Controller
          control={control}
          name="scope"
          // Each scope needs its own choice (or none): the folder and baseline are checked again with it.
          rules={{ deps: ["folder_id", "baseline_id"] }}
          render={({ field }) => (
            <fieldset style={{ border: "none", padding: 0, marginTop: token("space.200") }}>
              <legend>What to export</legend>
              {REQIF_EXPORT_SCOPES.map((value) => (
                <label key={value} style={{ display: "block" }}>
                  <input
                    type="radio"
                    name="reqif-scope"
                    value={value}
                    checked={field.value === value}
                    disabled={isSubmitting}
                    onChange={() => field.onChange(value)}
                  />{" "}
                  {SCOPE_LABELS[value]}
                </label>
              ))}
            </fieldset>
          )}
        />
        {scope === "folder" ? (
          <Controller
            control={control}
            name="folder_id"
            render={({ field }) => (
              <FolderPicker
                projectId={projectId}
                label="Folder to export"
                restrictions={{ currentFolderId: undefined }}
                value={field.value ?? undefined}
                onChange={(chosen) => field.onChange(chosen)}
                isDisabled={isSubmitting}
              />
            )}
          />
        ) : null}
        {scope === "baseline" ? (
          <Controller
            control={control}
            name="baseline_id"
            render={({ field }) => (
              <Select<{ label: string; value: number }>
                shouldPreventEscapePropagation
                aria-label="Baseline to export"
                options={baselineOptions}
                value={baselineOptions.find((option) => option.value === field.value) ?? null}
                onChange={(option) => field.onChange(option?.value ?? null)}
                isLoading={baselines.isLoading}
                isDisabled={isSubmitting}
              />
            )}
          />
        ) : null}
        <Controller
          control={control}
          name="include_attachments"
          render={({ field }) => (
            <Checkbox
              label="Include attachments (a .reqifz archive)"
              isChecked={field.value ?? false}
              isDisabled={isSubmitting}
              onChange={(event) => field.onChange(event.target.checked)}
            />
          )}
        />
        {scopeProblem ? <ErrorMessage>{scopeProblem}</ErrorMessage> : null}
        {job && job.status !== "finished" && job.status !== "failed" ? (
          <div role="status" style={{ marginTop: token("space.200") }}>
            {job.completed_rows ? `Exporting: ${job.completed_rows} requirements written` : "Generating your export..."}
          </div>
        ) : null}
      </ModalBody>
      <DialogFooter label="Export" isSubmitting={isSubmitting} isDisabled={!isValid} onConfirm={() => void submit()} onCancel={onClose} />
    </Modal>
  );
}
