import type { LinkedContentEntry } from "../../../common/schemas/confluence.js";
import { listLinkedContents as listLinks } from "../../db/contentLinkStore.js";
import type { Actor, ServiceDeps } from "../context.js";

/** `GET /api/confluence/content`: the site's pages that live requirements link, each with those requirements. */
export async function listLinkedContents(
  deps: ServiceDeps,
  actor: Actor,
  page: { start: number; limit: number },
): Promise<LinkedContentEntry[]> {
  const rows = await listLinks(deps.db, actor.tenantId, page);
  return rows.map((row) => ({ atlassian_content_id: row.contentId, requirements: row.requirementIds }));
}
