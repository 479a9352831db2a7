import type { Db } from "../db/knex.js";
import {
  deleteOtherInstallations,
  disableInstallation,
  findInstallationByClientKey,
  findOrCreateSiteTenant,
  recordTenantCloudId,
  refreshTenantActive,
  upsertInstallation,
} from "../db/installationStore.js";
import { appActor } from "../services/context.js";
import { seedDefaultRequirementTypes } from "../services/requirementTypes/seedDefaultRequirementTypes.js";
import { forgetInstallationsOf } from "../middleware/auth.js";
import type { Product } from "./appToken.js";

/** The `installed` payload of a Jira or Confluence site (fields rmCloud relies on). */
export type InstallPayload = {
  key: string;
  clientKey: string;
  sharedSecret: string;
  baseUrl: string;
  productType?: string;
  /** The site's Atlassian cloud id: what keeps one site's tenant when its URL changes hands. */
  cloudId?: unknown;
  [field: string]: unknown;
};

const CONFLUENCE_CONTEXT_PATH = /\/wiki$/;

/** The site a product's base URL belongs to: Confluence lives at the Jira site's URL + /wiki. */
export function siteUrlOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(CONFLUENCE_CONTEXT_PATH, "");
}

export function productOf(payload: Pick<InstallPayload, "productType" | "baseUrl">): Product {
  if (payload.productType === "confluence") return "confluence";
  if (payload.productType === "jira") return "jira";
  return CONFLUENCE_CONTEXT_PATH.test(payload.baseUrl.replace(/\/+$/, "")) ? "confluence" : "jira";
}

/**
 * A verified `installed` callback: the site's tenant is found (by this installation, else by the
 * site's cloud id or URL, so a Confluence install joins its Jira site's tenant) or created with the
 * default requirement types; the installation takes the new shared secret, and the tenant is open again.
 */
export async function recordInstallation(db: Db, payload: InstallPayload): Promise<{ tenantId: string; created: boolean }> {
  const product = productOf(payload);
  const baseUrl = payload.baseUrl.replace(/\/+$/, "");
  const { sharedSecret, ...clientInfo } = payload;
  const recorded = await db.transaction(async (trx) => {
    const existing = await findInstallationByClientKey(trx, payload.clientKey);
    const cloudId = typeof payload.cloudId === "string" && payload.cloudId !== "" ? payload.cloudId : undefined;
    const tenant = existing
      ? { tenantId: existing.tenantId, created: false }
      : await findOrCreateSiteTenant(trx, { siteUrl: siteUrlOf(baseUrl), cloudId });
    if (existing && cloudId) await recordTenantCloudId(trx, existing.tenantId, cloudId);
    if (tenant.created) await seedDefaultRequirementTypes({ db: trx }, appActor(tenant.tenantId));
    await deleteOtherInstallations(trx, tenant.tenantId, product, payload.clientKey);
    await upsertInstallation(trx, tenant.tenantId, { clientKey: payload.clientKey, product, baseUrl, sharedSecret, clientInfo });
    await refreshTenantActive(trx, tenant.tenantId);
    return tenant;
  });
  forgetInstallationsOf(recorded.tenantId);
  return recorded;
}

/**
 * A verified `uninstalled` callback: the installation is disabled (its JWTs and webhooks are refused
 * from now on) and the tenant closes once none of its products has rmCloud installed. Data stays.
 */
export async function recordUninstallation(db: Db, clientKey: string): Promise<void> {
  const tenantId = await db.transaction(async (trx) => {
    const disabledTenantId = await disableInstallation(trx, clientKey);
    if (disabledTenantId) await refreshTenantActive(trx, disabledTenantId);
    return disabledTenantId;
  });
  if (tenantId) forgetInstallationsOf(tenantId);
}
