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
/** Jira's rate limit (429), its overload (503), and no answer at all (our 502 and 504: a reset connection, a timeout). */
const RETRYABLE = new Set([429, 502, 503, 504]);
const isRetryable = (error: unknown): error is HostCallError => error instanceof HostCallError && RETRYABLE.has(error.status);

/**
 * One host call (the exports', the notifications', the coverage's reads of issues), tried again (p-retry)
 * while the host is rate limiting, overloaded or unreachable, at most HOST_CALL_TRIES times: each time
 * after the Retry-After it sent (at most a minute), else after a second. Any other failure, and the
 * last, is thrown. `sleep` is the wait, for tests.
 */
export function callWithHostRetries<T>(call: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
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
