import type { HostClient } from "../../connect/hostClient.js";
import type { ServiceDeps } from "../context.js";
import { hostComponentsOf, hostStatusesOf } from "./importRows.js";

/**
 * We store Jira's ids; the export shows names, read from Jira as the app. A lookup that fails
 * leaves the id in the cell (logged), so an export never fails because Jira is slow.
 */
export class JiraNames {
  private readonly components = new Map<string, string>();
  private readonly statuses = new Map<string, string>();
  private readonly issueKeys = new Map<string, string>();
  private readonly userNames = new Map<string, string>();

  private constructor(
    private readonly deps: ServiceDeps,
    private readonly host: HostClient | undefined,
    private readonly tenantId: string,
  ) {}

  /** The project's components and statuses, once; Global Requirements (0) has neither. */
  static async forProject(deps: ServiceDeps, tenantId: string, projectId: number): Promise<JiraNames> {
    const names = new JiraNames(deps, deps.hostClient, tenantId);
    if (projectId === 0) return names;
    const components = await names.get<unknown[]>(`/rest/api/3/project/${projectId}/components`);
    for (const component of hostComponentsOf(components ?? [])) names.components.set(component.id, component.name);
    const statuses = await names.get<unknown[]>(`/rest/api/3/project/${projectId}/statuses`);
    for (const status of hostStatusesOf(statuses ?? [])) names.statuses.set(status.id, status.name);
    return names;
  }

  component = (id: string) => this.components.get(id) ?? id;
  status = (id: string) => this.statuses.get(id) ?? id;
  issueKey = (id: string) => this.issueKeys.get(id) ?? id;
  userName = (accountId: string) => this.userNames.get(accountId) ?? accountId;

  /** Looks up the keys and display names a page of requirements needs and has not seen yet. */
  async load(issueIds: string[], accountIds: string[]): Promise<void> {
    const issues = [...new Set(issueIds)].filter((id) => !this.issueKeys.has(id));
    for (let start = 0; start < issues.length; start += 100) {
      const answer = await this.post<{ issues?: { id?: string; key?: string }[] }>("/rest/api/3/issue/bulkfetch", {
        issueIdsOrKeys: issues.slice(start, start + 100),
        fields: ["summary"],
      });
      for (const issue of answer?.issues ?? []) {
        if (issue.id && issue.key) this.issueKeys.set(String(issue.id), issue.key);
      }
    }
    const users = [...new Set(accountIds)].filter((id) => !this.userNames.has(id));
    for (let start = 0; start < users.length; start += 50) {
      const query = users
        .slice(start, start + 50)
        .map((id) => `accountId=${encodeURIComponent(id)}`)
        .join("&");
      const answer = await this.get<{ values?: { accountId?: string; displayName?: string }[] }>(
        `/rest/api/3/user/bulk?maxResults=50&${query}`,
      );
      for (const user of answer?.values ?? []) {
        if (user.accountId && user.displayName) this.userNames.set(user.accountId, user.displayName);
      }
    }
  }

  private get<T>(path: string): Promise<T | undefined> {
    return this.call<T>({ method: "GET", path });
  }

  private post<T>(path: string, body: unknown): Promise<T | undefined> {
    return this.call<T>({ method: "POST", path, body });
  }

  private async call<T>(call: Parameters<HostClient["call"]>[2]): Promise<T | undefined> {
    if (!this.host) return undefined;
    try {
      return await this.host.call<T>(this.tenantId, "jira", call);
    } catch (err) {
      this.deps.logger?.warn({ err, path: call.path }, "export: a Jira lookup failed, ids are shown instead of names");
      return undefined;
    }
  }
}
