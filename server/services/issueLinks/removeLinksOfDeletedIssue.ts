import { removeAllLinksOfIssue } from "../../db/issueLinkStore.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * Jira's `jira:issue_deleted` webhook: the issue is gone, so are its links, whoever made them.
 * No revision is written: revisions record what people did to a requirement, and every earlier
 * revision and baseline keeps the link as it was. Idempotent, since Jira may deliver twice.
 */
export async function removeLinksOfDeletedIssue(deps: ServiceDeps, actor: Actor, issueId: string): Promise<number> {
  return deps.db.transaction((trx) => removeAllLinksOfIssue(trx, actor.tenantId, issueId));
}
