/**
 * Who sees and changes a project's requirements: exactly the people Jira lets browse the project,
 * and of those, the people who may edit its issues (or, once a site's permission schemes grant
 * rmCloud's own "Edit requirements" / "Manage baselines" to anyone, those who hold that). Global
 * Requirements (project 0) are open to every member of the site. docs/decisions.md, "Access".
 *
 * The API other services use:
 * - `requireProjectAccess(deps, actor, projectId, "browse" | "edit" | "manageBaselines", thing?)`
 *   throws the answer a refused request gets (404 like a missing `thing`, 403, or 503);
 * - `mayAccessProject(deps, actor, projectId, level)` answers it as a boolean;
 * - `projectAccessOf(deps, actor, projectIds)` answers every level for many projects at once;
 * - `browsableProjectIds(deps, actor)` lists the site's projects the person may browse, for lists
 *   that leave the others out.
 * Jira is asked once per site and account per `ACCESS_TTL_MS` (one call for every project the site
 * keeps data of, plus a call for a project first asked about meanwhile); Jira unreachable: 503.
 */
import { LRUCache } from "lru-cache";
import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import { PROJECT_ACCESS_MESSAGES } from "../../../common/errors.js";
import { APP_PROJECT_PERMISSIONS } from "../../connect/modules.js";
import { projectIdsInUse } from "../../db/projectStore.js";
import { forbidden, notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { askedOrUnavailable, permissionsGrantedOnSite, projectPermissionsOf } from "../jira/jiraPermissions.js";

export type ProjectAccessLevel = "browse" | "edit" | "manageBaselines";
export type ProjectAccess = Record<ProjectAccessLevel, boolean>;

/** A revoked permission takes effect within this time; Jira is asked at most once per account in it. */
export const ACCESS_TTL_MS = 60_000;
/** Beyond this many accounts (and sites) the least recently used answers are forgotten: a bound on memory. */
const MAX_CACHED = 10_000;

const BROWSE = "BROWSE_PROJECTS";
const EDIT_ISSUES = "EDIT_ISSUES";
const ASKED_PERMISSIONS = [BROWSE, EDIT_ISSUES, APP_PROJECT_PERMISSIONS.editRequirements, APP_PROJECT_PERMISSIONS.manageBaselines];
const APP_PERMISSIONS = [APP_PROJECT_PERMISSIONS.editRequirements, APP_PROJECT_PERMISSIONS.manageBaselines];

/** Refusals the client shows as they are (a disabled button's tooltip, a toast). */
export const ACCESS_MESSAGES = PROJECT_ACCESS_MESSAGES;

type Granted = Map<number, ReadonlySet<string>>;

/**
 * The hosts' answers for a while: per site and account the Jira permissions held per project, per
 * site the app permissions in use, per site, account and Confluence page whether they may view it.
 */
export type AccessCache = {
  accounts: LRUCache<string, Promise<Granted>>;
  sites: LRUCache<string, Promise<ReadonlySet<string>>>;
  pages: LRUCache<string, Promise<boolean>>;
};

export function createAccessCache(ttlMs = ACCESS_TTL_MS): AccessCache {
  return {
    accounts: new LRUCache({ max: MAX_CACHED, ttl: ttlMs }),
    sites: new LRUCache({ max: MAX_CACHED, ttl: ttlMs }),
    pages: new LRUCache({ max: 10 * MAX_CACHED, ttl: ttlMs }),
  };
}

export type AccessDeps = ServiceDeps<"hostClient" | "access" | "logger">;

/**
 * The access dependencies inside a requirement write, whose deps are typed by what the write itself
 * needs: every request's and job's carry the app's own at run time. A caller without them is a
 * defect, never a reason to show or allow anything unchecked.
 */
export function accessDepsOf(deps: ServiceDeps & Partial<AccessDeps>): AccessDeps {
  const { hostClient, access, logger } = deps;
  if (!hostClient || !access || !logger) throw new Error("Jira's permissions cannot be asked without the host client and the access cache");
  return { ...deps, hostClient, access, logger };
}

/** A cached answer that failed is forgotten at once: the next request asks the host again. */
export function remembered<T>(cache: LRUCache<string, Promise<T>>, key: string, answer: Promise<T>, keepExpiry = false): Promise<T> {
  cache.set(key, answer, { noUpdateTTL: keepExpiry });
  answer.catch(() => {
    if (cache.get(key) === answer) cache.delete(key);
  });
  return answer;
}

async function grantedTo(deps: AccessDeps, actor: Actor, projectIds: readonly number[]): Promise<Granted> {
  const key = `${actor.tenantId} ${actor.accountId}`;
  const cached = deps.access.accounts.get(key);
  if (!cached) {
    const asking = (async () => {
      const inUse = await projectIdsInUse(deps.db, actor.tenantId);
      const jiraProjects = [...new Set([...inUse, ...projectIds])].filter((id) => id !== GLOBAL_PROJECT_ID);
      return projectPermissionsOf(deps, actor, jiraProjects, ASKED_PERMISSIONS);
    })();
    return remembered(deps.access.accounts, key, asking);
  }
  const known = await cached;
  const unknown = projectIds.filter((id) => !known.has(id));
  if (unknown.length === 0) return known;
  // A project the site had no data of when Jira was last asked: asked alone, then remembered with the rest until they expire together.
  const merged = projectPermissionsOf(deps, actor, unknown, ASKED_PERMISSIONS).then((more) => new Map([...known, ...more]));
  return remembered(deps.access.accounts, key, merged, true);
}

function appPermissionsInUse(deps: AccessDeps, tenantId: string): Promise<ReadonlySet<string>> {
  return (
    deps.access.sites.get(tenantId) ?? remembered(deps.access.sites, tenantId, permissionsGrantedOnSite(deps, tenantId, APP_PERMISSIONS))
  );
}

const EVERYTHING: ProjectAccess = { browse: true, edit: true, manageBaselines: true };
const NOTHING: ProjectAccess = { browse: false, edit: false, manageBaselines: false };

/**
 * What the person may do in each of the projects (each one in the answer). Asks Jira only when
 * its answers for this account have expired, and the site's schemes only when the answer depends
 * on them. Throws 503 when Jira cannot be asked.
 */
export async function projectAccessOf(deps: AccessDeps, actor: Actor, projectIds: Iterable<number>): Promise<Map<number, ProjectAccess>> {
  const ids = [...new Set(projectIds)];
  const jiraProjects = ids.filter((id) => id !== GLOBAL_PROJECT_ID);
  const access = new Map<number, ProjectAccess>(ids.filter((id) => id === GLOBAL_PROJECT_ID).map((id) => [id, EVERYTHING]));
  if (jiraProjects.length === 0) return access;
  // The app acting on its own (installation's demo seed, Jira's webhooks) is no person to restrict: tokens always name one.
  if (!actor.accountId) {
    for (const id of jiraProjects) access.set(id, EVERYTHING);
    return access;
  }
  const granted = await askedOrUnavailable(deps, actor, "what the user may do in projects", grantedTo(deps, actor, jiraProjects));
  const browsed = jiraProjects.filter((id) => granted.get(id)?.has(BROWSE));
  // The schemes matter only where someone browses without holding the app's permission.
  const inUse =
    browsed.length === 0
      ? new Set<string>()
      : await askedOrUnavailable(deps, actor, "which rmCloud permissions the site grants", appPermissionsInUse(deps, actor.tenantId));
  const holds = (held: ReadonlySet<string>, appPermission: string) => held.has(inUse.has(appPermission) ? appPermission : EDIT_ISSUES);
  for (const id of jiraProjects) {
    const held = granted.get(id) ?? new Set<string>();
    access.set(
      id,
      held.has(BROWSE)
        ? {
            browse: true,
            edit: holds(held, APP_PROJECT_PERMISSIONS.editRequirements),
            manageBaselines: holds(held, APP_PROJECT_PERMISSIONS.manageBaselines),
          }
        : NOTHING,
    );
  }
  return access;
}

export async function mayAccessProject(deps: AccessDeps, actor: Actor, projectId: number, level: ProjectAccessLevel): Promise<boolean> {
  return (await projectAccessOf(deps, actor, [projectId])).get(projectId)?.[level] ?? false;
}

/**
 * Throws what a request gets when the person may not do `level` in every one of the projects.
 * Objects named by id (`thing`: "Requirement", "Folder"...) in a project they may not browse are
 * answered as if they did not exist (404 "<thing> not found", as a missing one is); a project named
 * by its id answers 404 "Project not found" to a read, 403 with the reason to a change.
 */
export async function requireProjectAccess(
  deps: AccessDeps,
  actor: Actor,
  projectIds: number | readonly number[],
  level: ProjectAccessLevel,
  thing?: string,
): Promise<void> {
  const ids = typeof projectIds === "number" ? [projectIds] : projectIds;
  const access = await projectAccessOf(deps, actor, ids);
  for (const id of ids) {
    const allowed = access.get(id) ?? NOTHING;
    if (allowed[level]) continue;
    if (level === "browse" || (thing !== undefined && !allowed.browse)) throw notFound(thing ?? "Project");
    throw forbidden(ACCESS_MESSAGES[level]);
  }
}

/** Of the given projects, those the person may browse (in the order given). */
export async function browsableOf(deps: AccessDeps, actor: Actor, projectIds: readonly number[]): Promise<number[]> {
  const access = await projectAccessOf(deps, actor, projectIds);
  return projectIds.filter((id) => access.get(id)?.browse);
}

/**
 * Asks Jira now (once a minute per person) what the person may do in every project the site keeps
 * data of, so that the access checks of a transaction that follows answer from memory. Asked inside
 * it, the host client's read of the installation would wait for a second connection, which PGlite
 * (one connection) never gives while the transaction holds it.
 */
export async function askJiraBeforeTransaction(deps: AccessDeps, actor: Actor): Promise<void> {
  if (actor.accountId) await browsableProjectIds(deps, actor);
}

/** Of the items, those of projects the person may browse (in the order given): a list leaves the others out. */
export async function keepBrowsable<T>(deps: AccessDeps, actor: Actor, items: readonly T[], projectOf: (item: T) => number): Promise<T[]> {
  const shown = new Set(await browsableOf(deps, actor, [...new Set(items.map(projectOf))]));
  return items.filter((item) => shown.has(projectOf(item)));
}

/**
 * Every project the site keeps data of that the person may browse, Global Requirements included.
 * The projects are those Jira was last asked about for the person (the site's projects in use then,
 * and any named since), so a site-wide list reads the project list once a minute per person, not
 * on every request; a project whose first data came after that joins at the next ask, within 60 s.
 */
export async function browsableProjectIds(deps: AccessDeps, actor: Actor): Promise<number[]> {
  const asked = await grantedTo(deps, actor, []);
  return browsableOf(deps, actor, [GLOBAL_PROJECT_ID, ...[...asked.keys()].sort((a, b) => a - b)]);
}
