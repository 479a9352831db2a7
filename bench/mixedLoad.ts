import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AcceptedEdit, UnansweredEdit } from "./lostUpdates.js";

/** One request a connection sends, taken in turn. */
export type PlannedRequest = { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: unknown };

/** A requirement to edit: read it, then save it back with the revision read (a stale one answers 409). */
export type EditTarget = { site: string; requirementId: number; headers: Record<string, string> };

/**
 * One kind of request (its own latency histogram), on `urls` (connections spread over them),
 * for `durationSeconds`; `overallRate` caps its requests a second across its connections.
 */
export type LoadKind = { kind: string; urls: string[]; connections: number; durationSeconds: number; overallRate?: number } & (
  | { requests: PlannedRequest[] }
  | { edits: EditTarget[] }
);

export type KindResult = {
  kind: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  failures: number;
  /** 429 answers without a Retry-After header. */
  refusedWithoutRetryAfter: number;
};

export type MixedLoadResult = { kinds: KindResult[]; accepted: AcceptedEdit[]; unanswered: UnansweredEdit[] };

/**
 * Every kind at once from autocannon in a process of its own (bench/mixedLoadWorker.ts), so the
 * generator's CPU is not the servers' event loop; answers each kind's figures and the accepted edits.
 */
export async function runMixedLoad(kinds: LoadKind[]): Promise<MixedLoadResult> {
  const worker = fork(fileURLToPath(new URL("./mixedLoadWorker.ts", import.meta.url)), { execArgv: process.execArgv });
  try {
    return await new Promise<MixedLoadResult>((resolve, reject) => {
      worker.once("message", (message) => resolve(message as MixedLoadResult));
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the load generator exited with ${code}`)));
      worker.send(kinds);
    });
  } finally {
    worker.kill();
  }
}

/** Answers that count as errors: anything but 2xx, and 409 where edits expect it. */
export function errorsOf(result: KindResult, expected: number[] = []): number {
  const unexpected = Object.entries(result.statuses).filter(([status]) => !status.startsWith("2") && !expected.includes(Number(status)));
  return result.failures + unexpected.reduce((sum, [, count]) => sum + count, 0);
}
