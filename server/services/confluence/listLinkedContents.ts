import type { LinkedContentEntry } from "../../../common/schemas/confluence.js";
import { listLinkedContents as listLinks } from "../../db/contentLinkStore.js";
import { type AccessDeps, browsableProjectIds } from "../access/projectAccess.js";
import type { Actor } from "../context.js";

/**
 * `GET /api/confluence/content`: the site's pages that live requirements link, each with those
 * requirements, of projects the person may browse only.
 */
export async function listLinkedContents(
  deps: AccessDeps,
  actor: Actor,
  page: { start: number; limit: number },
): Promise<LinkedContentEntry[]> {
  const rows = await listLinks(deps.db, actor.tenantId, await browsableProjectIds(deps, actor), page);
  return rows.map((row) => ({ atlassian_content_id: row.contentId, requirements: row.requirementIds }));
}
