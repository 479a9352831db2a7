import type { Installation } from "../db/installationStore.js";
import { unavailable } from "../errors.js";
import type { HostClient } from "./hostClient.js";

/** Connect's license REST (Jira; Confluence under /wiki, which its installation's base URL carries). */
export const licensePath = (appKey: string) => `/rest/atlassian-connect/1/addons/${encodeURIComponent(appKey)}`;

type AddonAnswer = { license?: { active?: unknown } };

export const LICENSE_UNKNOWN = "rmCloud could not check the site's license with Atlassian. Please try again.";

/**
 * Whether the site's license of rmCloud is active, as the host tells the app itself: what a caller
 * writes into a request (a page address it was not signed for) cannot talk past it. The host
 * includes `license` for paid apps only, so an answer without one means there is none to check.
 * 503 when the host cannot be asked: no sign-in goes on as if it had said yes.
 */
export async function hostLicenseActive(hostClient: HostClient, installation: Installation): Promise<boolean> {
  let answer: AddonAnswer | undefined;
  try {
    answer = await hostClient.call<AddonAnswer>(installation.tenantId, installation.product, {
      method: "GET",
      path: licensePath(String(installation.clientInfo.key)),
    });
  } catch {
    throw unavailable(LICENSE_UNKNOWN);
  }
  return answer?.license === undefined || answer.license.active === true;
}
