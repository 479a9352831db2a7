/**
 * Calls the add-on makes to a tenant's Jira or Confluence as the app (a Connect JWT with the
 * qsh of the call, signed with the installation's shared secret).
 */
export type HostCall = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path and query on the product's base URL, e.g. /rest/api/3/issue/10001/comment */
  path: string;
  body?: unknown;
};

export interface HostClient {
  /** Resolves with the parsed JSON answer; rejects on a non-2xx answer or a timeout. */
  call<T>(tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T>;
}
