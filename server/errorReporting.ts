import type { NodeOptions } from "@sentry/node";
import { scrubBreadcrumb, scrubEvent } from "../common/errorReports.js";
import type { Config } from "./config.js";

type Sentry = typeof import("@sentry/node");

/** Loaded only when a DSN is configured: without one no Sentry code runs and nothing leaves the process. */
let sentry: Sentry | undefined;

/**
 * Server errors go to Sentry when SENTRY_DSN is set: failed requests (the error handler's 500s), jobs out of tries,
 * unhandled rejections and uncaught exceptions (Sentry's default integrations). Every event and
 * breadcrumb is scrubbed first (common/errorReports.ts). Answers whether reporting is on.
 */
export async function startErrorReporting(
  config: Pick<Config, "sentryDsn" | "env">,
  options: Pick<NodeOptions, "transport" | "defaultIntegrations"> = {},
): Promise<boolean> {
  if (!config.sentryDsn) return false;
  sentry = await import("@sentry/node");
  sentry.init({
    dsn: config.sentryDsn,
    environment: config.env,
    // No user fields or bodies are collected at all; the scrubber handles what remains.
    dataCollection: { userInfo: false, httpBodies: [] },
    tracesSampleRate: 0,
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
    ...options,
  });
  return true;
}

/** Reports an error that nobody handled (a 500, a failed job); a no-op while reporting is off. */
export function reportError(error: unknown, context: Record<string, string | number> = {}): void {
  sentry?.captureException(error, { extra: context });
}

/** Sends what is queued (before the process stops); a no-op while reporting is off. */
export async function flushErrorReports(timeoutMs = 2000): Promise<void> {
  await sentry?.flush(timeoutMs);
}
