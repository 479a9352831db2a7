import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { findEnabledInstallation } from "../../db/installationStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { badRequest, unavailable } from "../../errors.js";

export const NOT_ON_CONFLUENCE = "rmCloud is not installed on this site's Confluence";

/** Confluence v1 content as the app reads it (`expand=space,version,history.contributors.publishers.users`). */
export type WikiContent = {
  id: string;
  title: string;
  space?: { key?: string; name?: string };
  version?: { when?: string };
  history?: { contributors?: { publishers?: { users?: { accountId?: string; displayName?: string; publicName?: string }[] } } };
  _links?: { webui?: string };
};
export type WikiPage<T> = { results: T[]; start?: number; limit?: number; size?: number; _links?: { base?: string; next?: string } };

const statusOf = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
};

/**
 * GET on the site's Confluence as the app. Missing content answers `undefined` when `missingIsUndefined`;
 * timeouts, 5xx and any other refusal are the spec's wiki problem (503), so callers never save half.
 */
export async function readWiki<T>(
  deps: ServiceDeps<"hostClient">,
  actor: Actor,
  path: string,
  options: { missingIsUndefined?: boolean } = {},
): Promise<T | undefined> {
  if ((await findEnabledInstallation(deps.db, actor.tenantId, "confluence")) === undefined) throw badRequest(NOT_ON_CONFLUENCE);
  try {
    return await deps.hostClient.call<T>(actor.tenantId, "confluence", { method: "GET", path });
  } catch (error) {
    if (options.missingIsUndefined && statusOf(error) === 404) return undefined;
    throw unavailable(WIKI_DATA_PROBLEM);
  }
}

/** A CQL string literal: quotes and backslashes escaped. */
export const cqlString = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** `and space in (...)` for the stored space filter; nothing when every space is searched. */
export const spaceClause = (spaceKeys: readonly string[]) =>
  spaceKeys.length === 0 ? "" : ` and space in (${spaceKeys.map(cqlString).join(",")})`;
