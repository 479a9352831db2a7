import type { JobStatusResponse } from "../../common/schemas/job.js";
import { api } from "./client.js";

/** Spec sections 4 and 9: a job is asked about every 2 seconds while it is queued or started. */
export const JOB_POLL_MS = 2000;

export const isJobRunning = (status: string | undefined) => status === "queued" || status === "started";

/** Whether a job was given up because the screen that followed it is gone (not a failure to report). */
export const isAbandoned = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Asks GET /api/job/status/{jobId} every 2 s, reporting each answer, until the job is finished or
 * failed; stops (rejecting with an AbortError) once `signal` aborts.
 */
export async function followJob(
  jobId: string,
  onStatus: (status: JobStatusResponse) => void,
  signal: AbortSignal,
): Promise<JobStatusResponse> {
  for (;;) {
    signal.throwIfAborted();
    const status = await api.get<JobStatusResponse>(`/api/job/status/${jobId}`);
    signal.throwIfAborted();
    onStatus(status);
    if (!isJobRunning(status.status)) return status;
    await pause(JOB_POLL_MS, signal);
  }
}
