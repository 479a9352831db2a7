import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobStatusResponse } from "../../common/schemas/job.js";
import { followJob, isAbandoned, JOB_POLL_MS } from "./jobs.js";
import { memoryStorage } from "./pageStorage.js";

const answers = (statuses: JobStatusResponse["status"][]) => {
  const fetch = vi.fn(async () => {
    const status = statuses.shift() ?? "finished";
    return new Response(JSON.stringify({ job_id: "j1", status }), { headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  vi.stubGlobal("sessionStorage", memoryStorage());
  return fetch;
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("following an import or export job", () => {
  it("asks every 2 seconds while the job is queued or started, and answers its end", async () => {
    vi.useFakeTimers();
    const fetch = answers(["queued", "started", "finished"]);
    const seen: string[] = [];
    const end = followJob("j1", (status) => seen.push(status.status), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(2 * JOB_POLL_MS);
    await expect(end).resolves.toMatchObject({ status: "finished" });
    expect(seen).toEqual(["queued", "started", "finished"]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("stops asking once the screen that followed it is gone", async () => {
    vi.useFakeTimers();
    const fetch = answers(["started", "started", "started"]);
    const leaving = new AbortController();
    const end = followJob("j1", () => undefined, leaving.signal);
    const settled = end.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(JOB_POLL_MS / 2);
    leaving.abort();
    await vi.advanceTimersByTimeAsync(10 * JOB_POLL_MS);
    expect(isAbandoned(await settled)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
