import type { Host, HostRequestOptions } from "../../host/types.js";

/** Spec section 8: what the user reads whenever the host fails or is too slow to answer. */
export const HOST_DATA_ERROR = "There was a problem retrieving your project data from Atlassian.";
/** Spec section 8: the tooltip of an issue picker whose project has no issues. */
export const NO_ISSUES_TOOLTIP = "No issues found on this Jira project!";
/** A host call that has not answered by then is a failure: nothing waits forever on the bridge. */
export const HOST_TIMEOUT_MS = 15_000;

export class HostDataError extends Error {
  constructor(readonly reason: unknown) {
    super(HOST_DATA_ERROR);
    this.name = "HostDataError";
  }
}

export type HostRequester = Pick<Host, "request">;

/** One call to the host's REST API through the bridge, bounded in time; every failure becomes a HostDataError. */
export function hostRequest<T>(host: HostRequester, options: HostRequestOptions, timeoutMs = HOST_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new HostDataError(new Error(`No answer for ${options.url} in ${timeoutMs} ms`))), timeoutMs);
    host.request<T>(options).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new HostDataError(error));
      },
    );
  });
}

export const hostGet = <T>(host: HostRequester, url: string) => hostRequest<T>(host, { url, type: "GET" });

export const hostPost = <T>(host: HostRequester, url: string, body: unknown) =>
  hostRequest<T>(host, { url, type: "POST", data: JSON.stringify(body), contentType: "application/json" });
