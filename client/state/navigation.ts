import { matchPath } from "react-router-dom";

/**
 * Spec section 2, Navigation state: the main screen keeps its place in the host history as a
 * dash-separated string, so that a reload, a shared link and back/forward land on the same screen.
 */
export type MainTab = "requirements" | "traceability" | "baselines" | "comparison";

export type NavState = {
  projectId: number;
  tab: MainTab;
  requirementId?: number;
  folderId?: number;
  baselineId?: number;
};

export type BaselinePage = "baseline-explorer" | "baseline-comparison";

/** The iframe path of each tab; comparison is a page of the baselines tab. */
export const TAB_PATHS: Record<MainTab, string> = {
  requirements: "/requirements",
  traceability: "/traceability-matrix",
  baselines: "/baselines",
  comparison: "/baselines",
};

export function formatNavState(state: NavState): string {
  const { projectId, tab } = state;
  if (tab === "requirements") {
    if (state.requirementId !== undefined) return `${projectId}-requirements-${state.requirementId}`;
    if (state.folderId !== undefined) return `${projectId}-folder-${state.folderId}`;
  }
  if (tab === "baselines" && state.baselineId !== undefined) return `${projectId}-baselines-${state.baselineId}`;
  return `${projectId}-${tab}`;
}

/**
 * The state's dash-separated segments read as a path and matched with the router's own matcher:
 * `10000-requirements-12` is `/10000/requirements/12`. Every parameter is a number.
 */
const NAV_PATTERNS: [pattern: string, build: (ids: Record<string, number>) => NavState][] = [
  [
    "/:projectId/requirements/:requirementId?",
    ({ projectId = 0, requirementId }) => withId({ projectId, tab: "requirements" }, "requirementId", requirementId),
  ],
  ["/:projectId/folder/:folderId", ({ projectId = 0, folderId }) => withId({ projectId, tab: "requirements" }, "folderId", folderId)],
  ["/:projectId/traceability", ({ projectId = 0 }) => ({ projectId, tab: "traceability" })],
  [
    "/:projectId/baselines/:baselineId?",
    ({ projectId = 0, baselineId }) => withId({ projectId, tab: "baselines" }, "baselineId", baselineId),
  ],
  ["/:projectId/comparison", ({ projectId = 0 }) => ({ projectId, tab: "comparison" })],
];

function withId(state: NavState, key: "requirementId" | "folderId" | "baselineId", id: number | undefined): NavState {
  return id === undefined ? state : { ...state, [key]: id };
}

export function parseNavState(value: string | undefined | null): NavState | undefined {
  if (!value || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)) return undefined;
  const path = `/${value.replaceAll("-", "/")}`;
  for (const [pattern, build] of NAV_PATTERNS) {
    const match = matchPath({ path: pattern, caseSensitive: true, end: true }, path);
    if (!match) continue;
    const params = Object.entries(match.params).filter(([, id]) => id !== undefined);
    if (!params.every(([, id]) => /^\d+$/.test(id ?? ""))) continue;
    return build(Object.fromEntries(params.map(([key, id]) => [key, Number(id)])));
  }
  return undefined;
}

export function tabOfPath(pathname: string): MainTab | undefined {
  const path = pathname.replace(/\/$/, "");
  if (path === "/traceability-matrix") return "traceability";
  if (path === "/baselines") return "baselines";
  if (path === "/requirements") return "requirements";
  return undefined;
}

export function baselinePageOf(state: NavState | undefined): BaselinePage {
  return state?.tab === "comparison" ? "baseline-comparison" : "baseline-explorer";
}

/**
 * Spec sections 2 and 4: another project keeps the tab (the first two segments of the state) and
 * drops the open requirement, folder and baseline, which belong to the old project.
 */
export function navForProject(current: NavState | undefined, projectId: number): NavState {
  return { projectId, tab: current?.tab ?? "requirements" };
}

function positiveInt(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Where the main screen opens. The host history wins (a reload or back keeps the user's place),
 * then the deep-link query parameters projectId and requirementId, then the project the host page
 * is about; the iframe path picks the tab.
 */
export function initialNavState(input: {
  hostState: string | undefined;
  search: string;
  pathname: string;
  contextProjectId?: string;
}): NavState | undefined {
  const fromHost = parseNavState(input.hostState);
  if (fromHost) return fromHost;
  const query = new URLSearchParams(input.search);
  // `ac.*` parameters are what Jira hands on from the project page's own URL (links to a requirement).
  const projectId =
    positiveInt(query.get("ac.projectId")) ??
    positiveInt(query.get("projectId")) ??
    positiveInt(query.get("project.id")) ??
    positiveInt(input.contextProjectId);
  if (projectId === undefined) return undefined;
  const requirementId = positiveInt(query.get("ac.requirementId")) ?? positiveInt(query.get("requirementId"));
  if (requirementId !== undefined) return { projectId, tab: "requirements", requirementId };
  return { projectId, tab: tabOfPath(input.pathname) ?? "requirements" };
}
