import { SENTRY_DSN_META, scrubBreadcrumb, scrubEvent } from "../common/errorReports.js";

type SentryReact = typeof import("@sentry/react");
let sentry: Promise<SentryReact | undefined> = Promise.resolve(undefined);

function dsnOfPage(): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_DSN_META}"]`)?.content || undefined;
}

/**
 * Browser errors go to Sentry only when the page names a DSN. Sentry's code is imported then and
 * only then, so without a DSN an entry (the issue panel above all) loads none of it and sends nothing.
 */
export function startErrorReporting(dsn = dsnOfPage()): void {
  if (!dsn) return;
  sentry = import("@sentry/react").then((module) => {
    module.init({
      dsn,
      // No user fields or bodies are collected at all; the scrubber handles what remains.
      dataCollection: { userInfo: false, httpBodies: [] },
      beforeSend: (event) => scrubEvent(event),
      beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
    });
    return module;
  });
}

/** An error a screen could not recover from (its error boundary caught it). */
export function reportRenderError(error: unknown, componentStack: string | null | undefined): void {
  void sentry.then((module) =>
    module?.captureReactException(error, { componentStack: componentStack ?? "" }),
  );
}
