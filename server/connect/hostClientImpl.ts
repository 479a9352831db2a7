import pRetry from "p-retry";
import type { Logger } from "pino";
import type { Db } from "../db/knex.js";
import { findEnabledInstallation } from "../db/installationStore.js";
import type { Product } from "./appToken.js";
import { signAppJwt } from "./connectJwt.js";
import type { HostCall, HostClient } from "./hostClient.js";

/** A host call that failed: the host's status (504 on a timeout, 502 when unreachable) and its answer. */
export class HostCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message: string,
    /** Seconds the host asks us to wait before trying again (its Retry-After on a 429 or 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "HostCallError";
  }
}

export const HOST_CALL_TIMEOUT_MS = 10_000;

/**
 * Calls a tenant's Jira or Confluence as the app: an HS256 JWT signed with that product's
 * installation secret, `iss` = the app key the host installed, qsh of the call, 3 minutes of life.
 */
export function createHostClient(db: Db, logger: Logger, timeoutMs = HOST_CALL_TIMEOUT_MS): HostClient {
  return {
    async call<T>(tenantId: string, product: Product, call: HostCall): Promise<T> {
      const installation = await findEnabledInstallation(db, tenantId, product);
      if (!installation) throw new HostCallError(404, "", `rmCloud is not installed on this site's ${product}`);
      const appKey = String(installation.clientInfo.key);
      const jwt = signAppJwt(appKey, installation.sharedSecret, call.method, call.path);
      const url = `${installation.baseUrl}${call.path}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: call.method,
          headers: {
            Authorization: `JWT ${jwt}`,
            Accept: "application/json",
            ...(call.body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        logger.warn({ tenantId, product, method: call.method, path: call.path, timedOut }, "host call failed");
        throw new HostCallError(timedOut ? 504 : 502, "", `${call.method} ${call.path} on ${product} ${timedOut ? "timed out" : "failed"}`);
      }
      const text = await response.text();
      if (!response.ok) {
        logger.warn({ tenantId, product, method: call.method, path: call.path, status: response.status }, "host call refused");
        throw new HostCallError(
          response.status,
          text,
          `${call.method} ${call.path} on ${product} answered ${response.status}`,
          retryAfterSeconds(response.headers.get("retry-after")),
        );
      }
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries of one call, the first included. */
export const HOST_CALL_TRIES = 8;
const MAX_WAIT_SECONDS = 60;
/**
 * Answers after which a read is asked again: Jira's rate limit (429), its own failures (500, 503)
 * and no answer from it (a 502 or 504 of its proxy, or ours: a reset connection, a timeout).
 */
const READ_RETRYABLE = new Set([429, 500, 502, 503, 504]);
/**
 * A write Jira may have carried out before failing (a 5xx, a timeout) must not be sent again; a 429
 * is Jira's rate limiter refusing the request before acting on it, so a write is sent again only then.
 */
const WRITE_RETRYABLE = new Set([429]);

/**
 * A host call that only reads (GET, or a POST that asks, such as bulkfetch and the bulk permission
 * check: the exports', the coverage's and the access checks' reads), tried again (p-retry) while
 * Jira rate limits, fails or does not answer, at most HOST_CALL_TRIES times: each time after the
 * Retry-After it sent (at most a minute), else after a second. Any other failure, and the last, is
 * thrown. `sleep` is the wait, for tests.
 */
export function readWithHostRetries<T>(call: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  return withHostRetries(call, READ_RETRYABLE, sleep);
}

/**
 * A host call that writes and that Jira does not make idempotent (a comment: sent twice, it is posted
 * twice), tried again only after a 429, the same way as a read; a 5xx or a timeout, after which Jira
 * may or may not have written, is thrown at once.
 */
export function writeWithHostRetries<T>(call: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  return withHostRetries(call, WRITE_RETRYABLE, sleep);
}

function withHostRetries<T>(call: () => Promise<T>, retryable: ReadonlySet<number>, sleep: Sleep): Promise<T> {
  const isRetryable = (error: unknown): error is HostCallError => error instanceof HostCallError && retryable.has(error.status);
  return pRetry(call, {
    retries: HOST_CALL_TRIES - 1,
    shouldRetry: ({ error }) => isRetryable(error),
    // The wait is the host's (Retry-After) or ours, taken here so that a test can shorten it; p-retry adds none.
    minTimeout: 0,
    maxTimeout: 0,
    onFailedAttempt: async ({ error, retriesLeft }) => {
      if (retriesLeft === 0 || !isRetryable(error)) return;
      await sleep(Math.min(error.retryAfterSeconds ?? 1, MAX_WAIT_SECONDS) * 1000);
    },
  });
}
