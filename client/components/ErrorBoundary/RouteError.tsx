import { useEffect } from "react";
import { useRouteError } from "react-router-dom";
import { reportRenderError } from "../../errorReporting.js";
import { RENDER_ERROR } from "./ErrorBoundary.js";

/**
 * The routes' error element: inside the router a screen that throws while rendering, or whose lazy
 * chunk fails to load, is caught by the router rather than by ErrorBoundary; it ends the same way.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportRenderError(error, undefined), [error]);
  return <p role="alert">{RENDER_ERROR}</p>;
}
