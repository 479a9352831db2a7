import pino from "pino";
import type { HostClient } from "../../server/connect/hostClient.js";
import { createHostClient } from "../../server/connect/hostClientImpl.js";
import type { Db } from "../../server/db/knex.js";

/** What the emulator tells of one of its sites (its `/_emulator/sites` entry, or its in-process Site). */
export type EmulatedSite = { baseUrl: string; jira: { clientKey: string; sharedSecret: string } };

/**
 * A tenant of ours installed on an emulated site's Jira without the lifecycle, and the host
 * client that reads that Jira as the app for it, over HTTP with the app's JWT as in production.
 */
export async function installOnEmulatedJira(db: Db, site: EmulatedSite): Promise<{ tenantId: string; hostClient: HostClient }> {
  const [tenant] = await db("tenants").insert({ site_url: site.baseUrl }).returning("tenant_id");
  const tenantId = String(tenant.tenant_id);
  await db("installations").insert({
    tenant_id: tenantId,
    client_key: site.jira.clientKey,
    product: "jira",
    base_url: site.baseUrl,
    shared_secret: site.jira.sharedSecret,
    // Without the add-on running the emulator cannot read its key, so the app signs as the client key (which Jira accepts too).
    client_info: { key: site.jira.clientKey, clientKey: site.jira.clientKey, baseUrl: site.baseUrl, productType: "jira" },
  });
  return { tenantId, hostClient: createHostClient(db, pino({ level: "silent" })) };
}
