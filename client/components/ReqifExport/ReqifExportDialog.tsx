import { Checkbox } from "@atlaskit/checkbox";
import { ErrorMessage } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import Select from "@atlaskit/select";
import { token } from "@atlaskit/tokens";
import { type ReactNode, useState } from "react";
import { useBaselines } from "../../api/baselines.js";
import { downloadExport, startReqifExport } from "../../api/reqif.js";
import { isAbandoned } from "../../api/jobs.js";
import { useJob } from "../../hooks/useJob.js";
import { useNav } from "../../state/AppState.js";
import { useFlags } from "../Flags/Flags.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";

type Scope = "project" | "folder" | "baseline";
const SCOPES: { label: string; value: Scope }[] = [
  { label: "The whole project", value: "project" },
  { label: "A folder and everything in it", value: "folder" },
  { label: "A baseline", value: "baseline" },
];

/**
 * Export as ReqIF: the project, a folder with its subtree, or a baseline, with or without the
 * attachments (a .reqifz), as a job whose progress is shown; the file downloads when it is ready.
 */
export function ReqifExportDialog({ projectId, formatField, onClose }: { projectId: number; formatField: ReactNode; onClose(): void }) {
  const flags = useFlags();
  const nav = useNav();
  const baselines = useBaselines(projectId);
  const [scope, setScope] = useState<Scope>(nav?.folderId ? "folder" : "project");
  const [folderId, setFolderId] = useState<number | null>(nav?.folderId ?? null);
  const [baselineId, setBaselineId] = useState<number | undefined>();
  const [withAttachments, setWithAttachments] = useState(false);
  const { status: job, follow } = useJob();
  const [isSubmitting, setSubmitting] = useState(false);
  const incomplete = (scope === "folder" && folderId === null) || (scope === "baseline" && baselineId === undefined);

  const submit = async () => {
    setSubmitting(true);
    try {
      const started = await startReqifExport({
        atlassian_project_id: projectId,
        folder_id: scope === "folder" ? folderId : null,
        baseline_id: scope === "baseline" ? baselineId : null,
        include_attachments: withAttachments,
      });
      const end = await follow(started.job_id);
      if (end.status !== "finished") throw new Error(end.error ?? "The export failed");
      const name = await downloadExport(end);
      flags.success(`Exported ${name}`);
      onClose();
    } catch (error) {
      if (isAbandoned(error)) return;
      flags.error(`There was a problem retrieving your requirements export: ${error instanceof Error ? error.message : String(error)}`);
      setSubmitting(false);
    }
  };

  const baselineOptions = (baselines.items ?? []).map((baseline) => ({ label: baseline.name, value: baseline.baseline_id }));
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="medium">
      <ModalHeader>
        <ModalTitle>Export requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        {formatField}
        <fieldset style={{ border: "none", padding: 0, marginTop: token("space.200") }}>
          <legend>What to export</legend>
          {SCOPES.map((option) => (
            <label key={option.value} style={{ display: "block" }}>
              <input
                type="radio"
                name="reqif-scope"
                value={option.value}
                checked={scope === option.value}
                disabled={isSubmitting}
                onChange={() => setScope(option.value)}
              />{" "}
              {option.label}
            </label>
          ))}
        </fieldset>
        {scope === "folder" ? (
          <FolderPicker
            projectId={projectId}
            label="Folder to export"
            restrictions={{ currentFolderId: undefined }}
            value={folderId ?? undefined}
            onChange={(chosen) => setFolderId(chosen)}
            isDisabled={isSubmitting}
          />
        ) : null}
        {scope === "baseline" ? (
          <Select<{ label: string; value: number }>
            aria-label="Baseline to export"
            options={baselineOptions}
            value={baselineOptions.find((option) => option.value === baselineId) ?? null}
            onChange={(option) => setBaselineId(option?.value)}
            isLoading={baselines.isLoading}
            isDisabled={isSubmitting}
          />
        ) : null}
        <Checkbox
          label="Include attachments (a .reqifz archive)"
          isChecked={withAttachments}
          isDisabled={isSubmitting}
          onChange={(event) => setWithAttachments(event.target.checked)}
        />
        {incomplete ? <ErrorMessage>{scope === "folder" ? "Choose a folder" : "Choose a baseline"}</ErrorMessage> : null}
        {job && job.status !== "finished" && job.status !== "failed" ? (
          <div role="status" style={{ marginTop: token("space.200") }}>
            {job.completed_rows ? `Exporting: ${job.completed_rows} requirements written` : "Generating your export..."}
          </div>
        ) : null}
      </ModalBody>
      <DialogFooter label="Export" isSubmitting={isSubmitting} isDisabled={incomplete} onConfirm={() => void submit()} onCancel={onClose} />
    </Modal>
  );
}
