import { SENTRY_DSN_META, scrubBreadcrumb, scrubEvent } from "../common/errorReports.js";

type Sentry = typeof import("./sentry.js");
let sentry: Promise<Sentry | undefined> = Promise.resolve(undefined);

function dsnOfPage(): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_DSN_META}"]`)?.content || undefined;
}

/** Resolves once the browser has painted the page's first frame. */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * Browser errors go to Sentry only when the page names a DSN. Sentry's code is imported then and
 * only then, so without a DSN an entry (the issue panel above all) loads none of it and sends nothing;
 * with one, it loads after the first paint, never ahead of the first screen (issue 39). A screen's
 * error caught before that is reported once Sentry is there.
 */
export function startErrorReporting(dsn = dsnOfPage()): void {
  if (!dsn) return;
  sentry = afterFirstPaint().then(async () => {
    const module = await import("./sentry.js");
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
  void sentry.then((module) => module?.captureReactException(error, { componentStack: componentStack ?? "" }));
}
