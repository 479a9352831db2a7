import type { Request, RequestHandler } from "express";
import { UuidFileNameSchema } from "../../common/schemas/storage.js";
import { projectIdsOf } from "../db/projectStore.js";
import type { AppDeps } from "../deps.js";
import { type ProjectAccessLevel, requireProjectAccess } from "../services/access/projectAccess.js";
import { authOf } from "./auth.js";

/** The projects a request names, and what a refused read of them is called ("Requirement" not found). */
type Named = { projectIds: number[]; thing?: string };
/** How a route names its project: by id, or through the requirements, folders... it names. */
export type ProjectsNamed = (deps: AppDeps, req: Request) => Promise<Named>;

/**
 * Ids as the route's own validation will read them: numbers or digit strings, one or a list.
 * Anything else is left to that validation (a 400), so this never reads what a route would refuse.
 */
const idsIn = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value])
    .filter((v) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) || (typeof v === "string" && /^\d{1,15}$/.test(v)))
    .map(Number);

const field = (source: unknown, name: string): unknown =>
  source && typeof source === "object" ? (source as Record<string, unknown>)[name] : undefined;

const owned =
  (owner: "requirement" | "folder" | "baseline", thing: string, idsOf: (req: Request) => unknown): ProjectsNamed =>
  async (deps, req) => ({ projectIds: await projectIdsOf(deps.db, authOf(req).tenantId, owner, idsIn(idsOf(req))), thing });

/** Where each route finds its project. */
export const named = {
  projectInQuery:
    (name = "atlassian_project_id"): ProjectsNamed =>
    async (_deps, req) => ({ projectIds: idsIn(field(req.query, name)) }),
  projectInBody:
    (name: string): ProjectsNamed =>
    async (_deps, req) => ({ projectIds: idsIn(field(req.body, name)) }),
  requirementInPath: (param = "id") => owned("requirement", "Requirement", (req) => req.params[param]),
  requirementsInBody: (name: string) => owned("requirement", "Requirement", (req) => field(req.body, name)),
  folderInPath: (param = "id") => owned("folder", "Folder", (req) => req.params[param]),
  folderInBody: (name: string) => owned("folder", "Folder", (req) => field(req.body, name)),
  baselineInPath: (param = "id") => owned("baseline", "Baseline", (req) => req.params[param]),
  baselineInBody: (name: string) => owned("baseline", "Baseline", (req) => field(req.body, name)),
  baselinesInQuery: (...names: string[]) => owned("baseline", "Baseline", (req) => names.flatMap((name) => idsIn(field(req.query, name)))),
  attachmentInBody:
    (name: string): ProjectsNamed =>
    async (deps, req) => {
      const fileName = UuidFileNameSchema.safeParse(field(req.body, name));
      return {
        projectIds: fileName.success ? await projectIdsOf(deps.db, authOf(req).tenantId, "attachment", [fileName.data]) : [],
        thing: "File",
      };
    },
};

/**
 * Placed after the app token on a route that reads or changes a project's data, before its
 * handler: the person must be allowed `level` in every project the request names (services/access;
 * a hidden object answers 404 as a missing one does, a refused change 403, Jira unreachable 503).
 * Ids naming nothing pass on to the route, which answers for them as before.
 */
export function requireAccess(deps: AppDeps, level: ProjectAccessLevel, ...names: ProjectsNamed[]): RequestHandler {
  return (req, _res, next) => {
    (async () => {
      const actor = authOf(req);
      for (const name of names) {
        const named = await name(deps, req);
        if (named.projectIds.length > 0) await requireProjectAccess(deps, actor, [...new Set(named.projectIds)], level, named.thing);
      }
    })().then(() => next(), next);
  };
}
