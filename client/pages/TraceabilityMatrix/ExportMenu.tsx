import DropdownMenu, { DropdownItem, DropdownItemGroup } from "@atlaskit/dropdown-menu";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useEffect, useRef, useState } from "react";
import { isJobRunning, startMatrixExport, useJobProgress } from "../../api/matrix.js";
import { EXPORT_ERROR_ADVICE, EXPORT_ERROR_TEXT, EXPORT_PROGRESS_TEXT, exportProgressText } from "./matrixView.js";

type ExportState = { phase: "idle" } | { phase: "starting" } | { phase: "running"; jobId: string; url: string } | { phase: "failed" };

/** The file comes with `Content-Disposition: attachment`, so following its URL downloads it and the page stays. */
function download(url: string) {
  const link = document.createElement("a");
  link.href = url;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Export (Word .docx) of the matrix with the shown issue-type columns: starts the job, polls its
 * progress every 2 s while queued or started, downloads the file once finished; any other end is
 * the spec's error with the Get help advice.
 */
export function ExportMenu({ projectId, issueTypeIds }: { projectId: number; issueTypeIds: readonly string[] }) {
  const [state, setState] = useState<ExportState>({ phase: "idle" });
  const job = useJobProgress(state.phase === "running" ? state.jobId : undefined);
  const downloaded = useRef<string | undefined>(undefined);

  const status = job.data?.status;
  useEffect(() => {
    if (state.phase !== "running") return;
    if (job.isError) {
      setState({ phase: "failed" });
      return;
    }
    if (status === undefined || isJobRunning(status)) return;
    if (status === "finished" && downloaded.current !== state.jobId) {
      downloaded.current = state.jobId;
      download(state.url);
      setState({ phase: "idle" });
      return;
    }
    if (status !== "finished") setState({ phase: "failed" });
  }, [state, status, job.isError]);

  const start = async () => {
    setState({ phase: "starting" });
    try {
      const started = await startMatrixExport({
        atlassian_project_id: projectId,
        type: "docx",
        selected_issue_types: [...issueTypeIds],
      });
      setState({ phase: "running", jobId: started.job_id, url: started.presigned_url });
    } catch (error) {
      console.error("The export could not start", error);
      setState({ phase: "failed" });
    }
  };

  const busy = state.phase === "starting" || state.phase === "running";
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
          <span>{exportProgressText(job.data)}</span>
        </output>
      ) : null}
      {state.phase === "failed" ? (
        <div style={{ flexBasis: "100%" }}>
          <SectionMessage appearance="error" title={EXPORT_ERROR_TEXT}>
            <p>{EXPORT_ERROR_ADVICE}</p>
          </SectionMessage>
        </div>
      ) : null}
    </>
  );
}
