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
 *   that leave the others out;
 * - `askJiraBeforeTransaction(deps, actor)` answers an `AccessDecision` that the checks inside a
 *   write's transaction take as their argument: they answer from it and never ask Jira.
 * Jira is asked once per site and account per `ACCESS_TTL_MS` (one call for every project the site
 * keeps data of, plus a call for a project first asked about meanwhile); the site's permission
 * schemes only when a change's answer depends on them. Jira unreachable: 503.
 */
import { LRUCache, type Perf } from "lru-cache";
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

/** `clock` replaces the time the answers expire by (a test's, which it moves on itself). */
export function createAccessCache(ttlMs = ACCESS_TTL_MS, clock?: Perf): AccessCache {
  // A clock of one's own is read on every look-up: lru-cache would otherwise reuse one reading for a millisecond.
  const timing = { ttl: ttlMs, ...(clock ? { perf: clock, ttlResolution: 0 } : {}) };
  return {
    accounts: new LRUCache({ max: MAX_CACHED, ...timing }),
    sites: new LRUCache({ max: MAX_CACHED, ...timing }),
    pages: new LRUCache({ max: 10 * MAX_CACHED, ...timing }),
  };
}

export type AccessDeps = ServiceDeps<"hostClient" | "access" | "logger">;

/**
 * The access dependencies of a service whose deps are typed by what its write needs: every
 * request's and job's carry the app's own at run time. A caller without them is a defect, never a
 * reason to show or allow anything unchecked.
 */
export function accessDepsOf(deps: ServiceDeps & Partial<AccessDeps>): AccessDeps {
  const { hostClient, access, logger } = deps;
  if (!hostClient || !access || !logger) throw new Error("Jira's permissions cannot be asked without the host client and the access cache");
  return { ...deps, hostClient, access, logger };
}

/**
 * Asked inside a transaction, the host client's read of the installation would wait for a second
 * connection, which PGlite (one connection) never gives while the transaction holds it: checks
 * there take the AccessDecision asked before it opened. A call from inside is a defect, refused
 * every time rather than only when a cached answer happens to have expired.
 */
function assertOutsideTransaction(deps: AccessDeps): void {
  if (deps.db.isTransaction) {
    throw new Error("Jira is asked before a transaction opens: pass the AccessDecision of askJiraBeforeTransaction instead");
  }
}

/**
 * A cached answer is kept for the TTL from the moment the host gave it (not from the moment it was
 * asked: the next ask then comes a whole TTL after this one, never a few milliseconds short of it);
 * one that failed is forgotten at once, so the next request asks the host again. `keepExpiry`: an
 * answer that joins an earlier one expires with it.
 */
export function remembered<T>(cache: LRUCache<string, Promise<T>>, key: string, answer: Promise<T>, keepExpiry = false): Promise<T> {
  cache.set(key, answer, { noUpdateTTL: keepExpiry });
  answer.then(
    () => {
      if (!keepExpiry && cache.get(key) === answer) cache.set(key, answer);
    },
    () => {
      if (cache.get(key) === answer) cache.delete(key);
    },
  );
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
const NONE_HELD: ReadonlySet<string> = new Set();

/**
 * Whether what the person may change in the project depends on the site's permission schemes: it
 * does only where they browse and hold exactly one of an app permission and Edit Issues (holding
 * both, or neither, answers the same whichever decides).
 */
const dependsOnSchemes = (held: ReadonlySet<string>) =>
  held.has(BROWSE) && APP_PERMISSIONS.some((permission) => held.has(permission) !== held.has(EDIT_ISSUES));

/**
 * What Jira lets one person do in some projects, as it answered at one moment: every check against
 * it answers from memory and cannot ask Jira. A project it was not asked for is closed (Global
 * Requirements, project 0, are open to every member). A write asks for one before its transaction
 * opens (askJiraBeforeTransaction) and hands it to the checks inside, so that an answer expiring
 * meanwhile cannot make them ask Jira there.
 */
export class AccessDecision {
  /**
   * `granted` undefined: the app acting on its own, which nothing restricts. `appPermissionsInUse`
   * undefined: asked for browsing alone (Jira's schemes were not read), which no change may rely on.
   */
  constructor(
    private readonly granted: Granted | undefined,
    private readonly appPermissionsInUse: ReadonlySet<string> | undefined,
  ) {}

  private accessTo(projectId: number): ProjectAccess {
    if (projectId === GLOBAL_PROJECT_ID || !this.granted) return EVERYTHING;
    const held = this.granted.get(projectId) ?? NONE_HELD;
    if (!held.has(BROWSE)) return NOTHING;
    if (dependsOnSchemes(held) && !this.appPermissionsInUse) throw new Error("An access decision for browsing cannot answer a change");
    const inUse = this.appPermissionsInUse ?? NONE_HELD;
    const holds = (appPermission: string) => held.has(inUse.has(appPermission) ? appPermission : EDIT_ISSUES);
    return {
      browse: true,
      edit: holds(APP_PROJECT_PERMISSIONS.editRequirements),
      manageBaselines: holds(APP_PROJECT_PERMISSIONS.manageBaselines),
    };
  }

  /** Whether the person may browse the project: answered for any decision. */
  browses(projectId: number): boolean {
    return projectId === GLOBAL_PROJECT_ID || !this.granted || this.granted.get(projectId)?.has(BROWSE) === true;
  }

  /** What the person may do in each of the projects (each one in the answer). */
  of(projectIds: Iterable<number>): Map<number, ProjectAccess> {
    return new Map([...new Set(projectIds)].map((id) => [id, this.accessTo(id)]));
  }

  /** Of the given projects, those the person may browse (in the order given). */
  browsable(projectIds: readonly number[]): number[] {
    return projectIds.filter((id) => this.browses(id));
  }

  /**
   * Throws what a request gets when the person may not do `level` in every one of the projects.
   * Objects named by id (`thing`: "Requirement", "Folder"...) in a project they may not browse are
   * answered as if they did not exist (404 "<thing> not found", as a missing one is); a project named
   * by its id answers 404 "Project not found" to a read, 403 with the reason to a change.
   */
  require(projectIds: number | readonly number[], level: ProjectAccessLevel, thing?: string): void {
    for (const id of typeof projectIds === "number" ? [projectIds] : projectIds) {
      if (level === "browse" ? this.browses(id) : this.accessTo(id)[level]) continue;
      if (level === "browse" || (thing !== undefined && !this.browses(id))) throw notFound(thing ?? "Project");
      throw forbidden(ACCESS_MESSAGES[level]);
    }
  }
}

/**
 * Jira's answer for the projects (every project it was last asked about for the person, with
 * `everyKnown`), as a decision. The site's schemes are read only for a decision beyond browsing,
 * and only when one of its projects' answers depends on them. Throws 503 when Jira cannot be asked.
 */
async function decisionOn(
  deps: AccessDeps,
  actor: Actor,
  projectIds: Iterable<number>,
  { browsingOnly = false, everyKnown = false } = {},
): Promise<AccessDecision> {
  // The app acting on its own (installation's demo seed, Jira's webhooks) is no person to restrict: tokens always name one.
  if (!actor.accountId) return new AccessDecision(undefined, new Set());
  assertOutsideTransaction(deps);
  const jiraProjects = [...new Set(projectIds)].filter((id) => id !== GLOBAL_PROJECT_ID);
  if (jiraProjects.length === 0 && !everyKnown) return new AccessDecision(new Map(), new Set());
  const granted = await askedOrUnavailable(deps, actor, "what the user may do in projects", grantedTo(deps, actor, jiraProjects));
  const covered: Granted = new Map(
    (everyKnown ? [...new Set([...granted.keys(), ...jiraProjects])] : jiraProjects).map((id) => [id, granted.get(id) ?? NONE_HELD]),
  );
  if (browsingOnly) return new AccessDecision(covered, undefined);
  const inUse = [...covered.values()].some(dependsOnSchemes)
    ? await askedOrUnavailable(deps, actor, "which rmCloud permissions the site grants", appPermissionsInUse(deps, actor.tenantId))
    : new Set<string>();
  return new AccessDecision(covered, inUse);
}

/**
 * What the person may do in each of the projects (each one in the answer). Asks Jira only when
 * its answers for this account have expired, and the site's schemes only when the answer depends
 * on them. Throws 503 when Jira cannot be asked.
 */
export async function projectAccessOf(deps: AccessDeps, actor: Actor, projectIds: Iterable<number>): Promise<Map<number, ProjectAccess>> {
  const ids = [...new Set(projectIds)];
  return (await decisionOn(deps, actor, ids)).of(ids);
}

export async function mayAccessProject(deps: AccessDeps, actor: Actor, projectId: number, level: ProjectAccessLevel): Promise<boolean> {
  const decision = await decisionOn(deps, actor, [projectId], { browsingOnly: level === "browse" });
  return level === "browse" ? decision.browses(projectId) : decision.of([projectId]).get(projectId)?.[level] === true;
}

/** AccessDecision.require, Jira asked first (its schemes only for a change). */
export async function requireProjectAccess(
  deps: AccessDeps,
  actor: Actor,
  projectIds: number | readonly number[],
  level: ProjectAccessLevel,
  thing?: string,
): Promise<void> {
  const ids = typeof projectIds === "number" ? [projectIds] : projectIds;
  (await decisionOn(deps, actor, ids, { browsingOnly: level === "browse" })).require(ids, level, thing);
}

/** Of the given projects, those the person may browse (in the order given). */
export async function browsableOf(deps: AccessDeps, actor: Actor, projectIds: readonly number[]): Promise<number[]> {
  return (await decisionOn(deps, actor, projectIds, { browsingOnly: true })).browsable(projectIds);
}

/**
 * Asks Jira now (once a minute per person) what the person may do in every project the site keeps
 * data of, and in `projectIds`, and answers it as the decision that the access checks of a
 * transaction that follows take as their argument: they answer from it and never ask Jira inside
 * the transaction, even when the cached answer expires meanwhile.
 */
export function askJiraBeforeTransaction(deps: AccessDeps, actor: Actor, projectIds: readonly number[] = []): Promise<AccessDecision> {
  return decisionOn(deps, actor, projectIds, { everyKnown: true });
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
  if (!actor.accountId) {
    return [GLOBAL_PROJECT_ID, ...(await projectIdsInUse(deps.db, actor.tenantId)).filter((id) => id !== GLOBAL_PROJECT_ID)];
  }
  assertOutsideTransaction(deps);
  const asked = await askedOrUnavailable(deps, actor, "what the user may do in projects", grantedTo(deps, actor, []));
  return browsableOf(deps, actor, [GLOBAL_PROJECT_ID, ...[...asked.keys()].sort((a, b) => a - b)]);
}
