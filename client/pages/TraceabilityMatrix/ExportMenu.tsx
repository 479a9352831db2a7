import DropdownMenu, { DropdownItem, DropdownItemGroup } from "@atlaskit/dropdown-menu";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useState } from "react";
import { saveFile } from "../../api/download.js";
import { isAbandoned } from "../../api/jobs.js";
import { startMatrixExport } from "../../api/matrix.js";
import { useJob } from "../../hooks/useJob.js";
import { EXPORT_ERROR_ADVICE, EXPORT_ERROR_TEXT, EXPORT_PROGRESS_TEXT, exportProgressText } from "./matrixView.js";

type ExportPhase = "idle" | "running" | "failed";

/**
 * Export (Word .docx) of the matrix with the shown issue-type columns: starts the job, polls its
 * progress every 2 s while queued or started, downloads the file once finished; any other end is
 * the spec's error with the Get help advice.
 */
export function ExportMenu({ projectId, issueTypeIds }: { projectId: number; issueTypeIds: readonly string[] }) {
  const [phase, setPhase] = useState<ExportPhase>("idle");
  const job = useJob();

  const start = async () => {
    setPhase("running");
    try {
      const started = await startMatrixExport({
        atlassian_project_id: projectId,
        type: "docx",
        selected_issue_types: [...issueTypeIds],
      });
      const end = await job.follow(started.job_id);
      if (end.status !== "finished") throw new Error(end.error ?? "The export failed");
      saveFile(started.presigned_url);
      setPhase("idle");
    } catch (error) {
      if (isAbandoned(error)) return;
      console.error("The export failed", error);
      setPhase("failed");
    }
  };

  const busy = phase === "running";
  return (
    <>
      <DropdownMenu trigger="Export" shouldRenderToParent>
        <DropdownItemGroup>
          <DropdownItem isDisabled={busy} onClick={() => void start()}>
            Word (.docx)
          </DropdownItem>
        </DropdownItemGroup>
      </DropdownMenu>
      {busy ? (
        <output style={{ display: "flex", alignItems: "center", gap: token("space.100") }}>
          <Spinner size="small" />
          <span>{EXPORT_PROGRESS_TEXT}</span>
          <span>{exportProgressText(job.status)}</span>
        </output>
      ) : null}
      {phase === "failed" ? (
        <div style={{ flexBasis: "100%" }}>
          <SectionMessage appearance="error" title={EXPORT_ERROR_TEXT}>
            <p>{EXPORT_ERROR_ADVICE}</p>
          </SectionMessage>
        </div>
      ) : null}
    </>
  );
}
