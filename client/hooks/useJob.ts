import { useCallback, useEffect, useRef, useState } from "react";
import type { JobStatusResponse } from "../../common/schemas/job.js";
import { followJob } from "../api/jobs.js";

/**
 * A job that a dialog or menu started (import, export): its latest status, `follow`, which
 * resolves with its end, and `forget`, which clears the status shown (a new file chosen). Leaving the screen stops the polling: `follow` then rejects with an
 * AbortError (`isAbandoned`), which is nobody's failure to report.
 */
export function useJob() {
  const [status, setStatus] = useState<JobStatusResponse | undefined>();
  const lifetime = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
  }, []);
  const follow = useCallback((jobId: string) => followJob(jobId, setStatus, lifetime.current.signal), []);
  const forget = useCallback(() => setStatus(undefined), []);
  return { status, follow, forget };
}
