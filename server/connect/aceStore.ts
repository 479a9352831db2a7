import type { Db } from "../db/knex.js";
import { findInstallationByClientKey, type Installation, listEnabledInstallations } from "../db/installationStore.js";
import { type InstallPayload, recordInstallation, recordUninstallation } from "./lifecycle.js";

const CLIENT_INFO = "clientInfo";

/** ACE reads an installation as its install payload, shared secret included. */
const clientInfoOf = (installation: Installation): Record<string, unknown> => ({
  ...installation.clientInfo,
  sharedSecret: installation.sharedSecret,
});

/**
 * ACE's installation store kept in our `installations` table. ACE only ever stores `clientInfo`
 * (the other keys serve ACT_AS_USER tokens and Forge associations, which rmCloud does not use),
 * so any other key is refused rather than silently kept somewhere else.
 * A disabled (uninstalled) installation is unknown to ACE: its webhooks fail authentication.
 */
export class KnexInstallationStore {
  constructor(private readonly db: Db) {}

  async get(key: string, clientKey: string): Promise<Record<string, unknown> | null> {
    assertClientInfo(key);
    const installation = await findInstallationByClientKey(this.db, clientKey);
    return installation?.enabled ? clientInfoOf(installation) : null;
  }

  /** What ACE returns is only logged and emitted, so it carries no secret. */
  async saveInstallation(payload: InstallPayload, clientKey: string): Promise<Record<string, unknown>> {
    const { tenantId } = await recordInstallation(this.db, { ...payload, clientKey });
    return { clientKey, baseUrl: payload.baseUrl, productType: payload.productType, tenantId };
  }

  set(key: string, value: InstallPayload, clientKey: string): Promise<Record<string, unknown>> {
    assertClientInfo(key);
    return this.saveInstallation(value, clientKey);
  }

  async del(key: string, clientKey: string): Promise<void> {
    assertClientInfo(key);
    await recordUninstallation(this.db, clientKey);
  }

  async getAllClientInfos(): Promise<Record<string, unknown>[]> {
    return (await listEnabledInstallations(this.db)).map(clientInfoOf);
  }

  /** Never a memory store, so ACE never tries to auto-register the add-on with a host. */
  isMemoryStore(): boolean {
    return false;
  }
}

function assertClientInfo(key: string): void {
  if (key !== CLIENT_INFO) throw new Error(`rmCloud's installation store keeps only ${CLIENT_INFO}, not ${key}`);
}
