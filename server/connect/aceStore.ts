import type { Db } from "../db/knex.js";
import { associateForgeInstallation, clientKeyOfForgeInstallation, forgetForgeInstallation } from "../db/forgeInstallationStore.js";
import { findInstallationByClientKey, type Installation, listEnabledInstallations } from "../db/installationStore.js";
import { type InstallPayload, type LifecycleToken, recordInstallation } from "../services/installations/installations.js";

const CLIENT_INFO = "clientInfo";
const LIFECYCLE_ONLY = "rmCloud records installations through its lifecycle routes only";

/** ACE reads an installation as its install payload, shared secret included. */
const clientInfoOf = (installation: Installation): Record<string, unknown> => ({
  ...installation.clientInfo,
  sharedSecret: installation.sharedSecret,
});

/**
 * ACE's installation store kept in our `installations` table. ACE only ever stores `clientInfo`
 * (the other keys serve ACT_AS_USER tokens, which rmCloud does not use), so any other key is
 * refused rather than silently kept somewhere else.
 * A disabled (uninstalled) installation is unknown to ACE: its webhooks fail authentication.
 *
 * Connect on Forge: an `installed` payload carrying `installationId` associates that Forge
 * installation with the Connect installation, so a Forge invocation (which names only the Forge
 * installation) reaches the same tenant and data.
 */
export class KnexInstallationStore {
  constructor(private readonly db: Db) {}

  async get(key: string, clientKey: string): Promise<Record<string, unknown> | null> {
    assertClientInfo(key);
    const installation = await findInstallationByClientKey(this.db, clientKey);
    return installation?.enabled ? clientInfoOf(installation) : null;
  }

  /** Our `installed` route's (server/connect/index.ts), with the callback's token: ACE's own route is not mounted. */
  async saveInstallation(payload: InstallPayload, clientKey: string, token: LifecycleToken): Promise<Record<string, unknown>> {
    const { tenantId } = await recordInstallation(this.db, { ...payload, clientKey }, token);
    if (typeof payload.installationId === "string" && payload.installationId) {
      await this.associateInstallations(payload.installationId, clientKey);
    }
    return { clientKey, baseUrl: payload.baseUrl, productType: payload.productType, tenantId };
  }

  associateInstallations(forgeInstallationId: string, clientKey: string): Promise<void> {
    return associateForgeInstallation(this.db, forgeInstallationId, clientKey);
  }

  /** The Connect installation a Forge installation carries, as ACE reads it; none once uninstalled. */
  async getClientSettingsForForgeInstallation(forgeInstallationId: string): Promise<Record<string, unknown> | null> {
    const clientKey = await clientKeyOfForgeInstallation(this.db, forgeInstallationId);
    return clientKey ? this.get(CLIENT_INFO, clientKey) : null;
  }

  deleteAssociation(forgeInstallationId: string): Promise<void> {
    return forgetForgeInstallation(this.db, forgeInstallationId);
  }

  /**
   * ACE keeps Forge app tokens here when its own Forge middleware runs. rmCloud calls the product
   * as the Connect app (shared secret) and never as the Forge app, so there is nothing to keep.
   */
  forForgeInstallation(_installationId: string): never {
    throw new Error("rmCloud keeps no Forge app tokens: it calls Jira and Confluence as the Connect app");
  }

  /**
   * Installations are recorded by the lifecycle routes only, which accept each signed callback once;
   * a write past them would skip that check.
   */
  set(_key: string, _value: InstallPayload, _clientKey: string): never {
    throw new Error(LIFECYCLE_ONLY);
  }

  del(_key: string, _clientKey: string): never {
    throw new Error(LIFECYCLE_ONLY);
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
