import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { unavailable } from "../../errors.js";
import { remembered } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";

type Deps = ServiceDeps<"hostClient" | "access" | "logger">;

/** Confluence's check of one person's permission on one page, asked by the app for any account. */
export const contentPermissionCheckPath = (contentId: string) => `/rest/api/content/${encodeURIComponent(contentId)}/permission/check`;

/**
 * Of the given pages, those the person may view in Confluence (its space permissions and page
 * restrictions), asked as the app with `POST /rest/api/content/{id}/permission/check` for the
 * account, each answer kept as long as Jira's project answers (services/access). Confluence
 * unreachable: 503 with the spec's wiki message, never a page shown unchecked.
 */
export async function pagesUserMayView(deps: Deps, actor: Actor, contentIds: readonly string[]): Promise<Set<string>> {
  const ask = (contentId: string) => {
    const key = `${actor.tenantId} ${actor.accountId} ${contentId}`;
    const asking = async () => {
      try {
        const answer = await deps.hostClient.call<{ hasPermission?: boolean }>(actor.tenantId, "confluence", {
          method: "POST",
          path: contentPermissionCheckPath(contentId),
          body: { subject: { type: "user", identifier: actor.accountId }, operation: "read" },
        });
        return answer?.hasPermission === true;
      } catch (error) {
        // A page Confluence does not know (deleted since) is one nobody may view.
        if (error instanceof HostCallError && error.status === 404) return false;
        throw error;
      }
    };
    return deps.access.pages.get(key) ?? remembered(deps.access.pages, key, asking());
  };
  try {
    const answers = await Promise.all(contentIds.map(async (contentId) => [contentId, await ask(contentId)] as const));
    return new Set(answers.filter(([, may]) => may).map(([contentId]) => contentId));
  } catch (err) {
    deps.logger.warn({ err, tenantId: actor.tenantId }, "Confluence could not tell which pages the user may view");
    throw unavailable(WIKI_DATA_PROBLEM);
  }
}
