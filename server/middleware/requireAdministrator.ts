import type { RequestHandler } from "express";
import type { ServiceDeps } from "../services/context.js";
import { requireJiraAdministrator } from "../services/jira/jiraPermissions.js";
import { authOf } from "./auth.js";

/**
 * Placed after the app token on a route that changes the site's configuration, before its body is
 * read: only a Jira administrator passes (403 otherwise, 503 when Jira cannot be asked).
 */
export function requireAdministrator(deps: ServiceDeps<"hostClient" | "logger">): RequestHandler {
  return (req, _res, next) => {
    requireJiraAdministrator(deps, authOf(req)).then(() => next(), next);
  };
}
