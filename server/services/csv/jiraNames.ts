import type { HostCall } from "../../connect/hostClient.js";
import { readWithHostRetries } from "../../connect/hostClientImpl.js";
import { type IssueKeyReader, issueKeyReader } from "../jira/issueDetails.js";
import type { ServiceDeps } from "../context.js";
import { hostComponentsOf, hostStatusesOf } from "../../../common/importHostLists.js";

/** Accounts per `GET /rest/api/3/user/bulk`, Jira's page size for it. */
const USERS_PER_CALL = 50;

/** The names one page of an export shows. */
export type PageNames = { issueKey: (issueId: string) => string; userName: (accountId: string) => string };

/**
 * We store Jira's ids; the export shows names, read from Jira as the app. Jira's rate limits are
 * waited out (as the matrix export does); a lookup that still fails leaves the id in the cell
 * (logged), so an export never fails because Jira is slow.
 */
export class JiraNames {
  private readonly components = new Map<string, string>();
  private readonly statuses = new Map<string, string>();
  /** Display names for the whole export: a site has few people, and each is asked for once. */
  private readonly userNames = new Map<string, Promise<void>>();
  private readonly knownUserNames = new Map<string, string>();
  private readonly readIssueKeys: IssueKeyReader;

  private constructor(
    private readonly deps: ServiceDeps<"hostClient" | "logger">,
    private readonly tenantId: string,
  ) {
    this.readIssueKeys = issueKeyReader(deps.hostClient, tenantId);
  }

  /** The project's components and statuses, once; Global Requirements (0) has neither. */
  static async forProject(deps: ServiceDeps<"hostClient" | "logger">, tenantId: string, projectId: number): Promise<JiraNames> {
    const names = new JiraNames(deps, tenantId);
    if (projectId === 0) return names;
    const [components, statuses] = await Promise.all([
      names.read<unknown>({ method: "GET", path: `/rest/api/3/project/${projectId}/components` }),
      names.read<unknown>({ method: "GET", path: `/rest/api/3/project/${projectId}/statuses` }),
    ]);
    for (const component of hostComponentsOf(components)) names.components.set(component.id, component.name);
    for (const status of hostStatusesOf(statuses)) names.statuses.set(status.id, status.name);
    return names;
  }

  component = (id: string) => this.components.get(id) ?? id;
  status = (id: string) => this.statuses.get(id) ?? id;

  /**
   * The issue keys and display names one page of requirements shows: its issues read for the page
   * alone (so memory stays flat however many pages), people not seen on an earlier page read now.
   */
  async forPage(issueIds: string[], accountIds: string[]): Promise<PageNames> {
    const [issues] = await Promise.all([this.issueKeys(issueIds), this.loadUserNames(accountIds)]);
    return {
      issueKey: (issueId) => issues.get(issueId) ?? issueId,
      userName: (accountId) => this.knownUserNames.get(accountId) ?? accountId,
    };
  }

  private async issueKeys(issueIds: string[]): Promise<Map<string, string>> {
    try {
      return await this.readIssueKeys(issueIds);
    } catch (err) {
      this.lookupFailed(err, "/rest/api/3/issue/bulkfetch");
      return new Map();
    }
  }

  private async loadUserNames(accountIds: string[]): Promise<void> {
    const unseen = [...new Set(accountIds)].filter((id) => !this.userNames.has(id));
    for (let start = 0; start < unseen.length; start += USERS_PER_CALL) {
      const batch = unseen.slice(start, start + USERS_PER_CALL);
      const query = batch.map((id) => `accountId=${encodeURIComponent(id)}`).join("&");
      const loaded = this.read<{ values?: { accountId?: string; displayName?: string }[] }>({
        method: "GET",
        path: `/rest/api/3/user/bulk?maxResults=${USERS_PER_CALL}&${query}`,
      }).then((answer) => {
        for (const user of answer?.values ?? []) {
          if (user.accountId && user.displayName) this.knownUserNames.set(user.accountId, user.displayName);
        }
      });
      // A later page showing the same people waits for this read rather than asking again.
      for (const id of batch) this.userNames.set(id, loaded);
    }
    await Promise.all(accountIds.map((id) => this.userNames.get(id)));
  }

  private async read<T>(call: HostCall): Promise<T | undefined> {
    try {
      return await readWithHostRetries(() => this.deps.hostClient.call<T>(this.tenantId, "jira", call));
    } catch (err) {
      this.lookupFailed(err, call.path);
      return undefined;
    }
  }

  private lookupFailed(err: unknown, path: string): void {
    this.deps.logger.warn({ err, path }, "export: a Jira lookup failed, ids are shown instead of names");
  }
}
