import { Component, type ErrorInfo, type ReactNode, useEffect } from "react";
import { useRouteError } from "react-router-dom";
import { reportRenderError } from "../../errorReporting.js";

export const RENDER_ERROR = "Something went wrong. Reload the page to try again.";

type State = { failed: boolean };

/**
 * Around each entry (main screen, issue panel): a screen that throws while rendering shows a short
 * notice instead of a blank frame, and the error goes to Sentry when reporting is on. Written here
 * rather than taken from @sentry/react so the entries do not load Sentry unless a DSN is configured.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportRenderError(error, info.componentStack);
  }

  override render() {
    if (this.state.failed) return <p role="alert">{RENDER_ERROR}</p>;
    return this.props.children;
  }
}

/**
 * The routes' error element: inside the router a screen that throws while rendering, or whose lazy
 * chunk fails to load, is caught by the router rather than by ErrorBoundary; it ends the same way.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportRenderError(error, undefined), [error]);
  return <p role="alert">{RENDER_ERROR}</p>;
}
