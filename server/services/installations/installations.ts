import type { Db } from "../../db/knex.js";
import {
  deleteOtherInstallations,
  disableInstallation,
  findInstallationByClientKey,
  findOrCreateSiteTenant,
  findOtherEnabledInstallation,
  type Installation,
  moveTenantToSiteUrl,
  recordTenantCloudId,
  refreshTenantActive,
  siteOfTenant,
  upsertInstallation,
} from "../../db/installationStore.js";
import { recordLifecycleToken } from "../../db/lifecycleTokenStore.js";
import { conflict, unauthorized } from "../../errors.js";
import type { Product } from "../../connect/appToken.js";
import { forgetInstallationsOf } from "../../middleware/auth.js";
import { appActor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";

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

/** A verified lifecycle callback's JWT, as remembered against replays (never the token itself). */
export type LifecycleToken = { sha256: string; expiresAt: Date };

async function refuseReplay(db: Db, token: LifecycleToken): Promise<void> {
  if (!(await recordLifecycleToken(db, token))) throw unauthorized("This lifecycle callback was already received");
}

/**
 * A reinstall keeps the site it was recorded with: the body's cloud id and URL are not covered by
 * the signature. The cloud id, once recorded, never changes; the URL changes only along with the
 * recorded cloud id (a renamed site, docs/decisions.md), and the tenant then takes the new URL.
 */
async function keepSite(db: Db, existing: Installation, site: { baseUrl: string; cloudId: string | undefined }): Promise<void> {
  const recorded = await siteOfTenant(db, existing.tenantId);
  const recordedCloudId = recorded?.cloudId ?? null;
  if (recordedCloudId && site.cloudId && site.cloudId !== recordedCloudId) {
    throw conflict("This installation belongs to another Atlassian site than the one it was installed on");
  }
  if (site.baseUrl !== existing.baseUrl) {
    if (!recordedCloudId || site.cloudId !== recordedCloudId) {
      throw conflict("An installation's site address changes only with the site's cloud id (a renamed site)");
    }
    await moveTenantToSiteUrl(db, existing.tenantId, siteUrlOf(site.baseUrl));
  }
  if (site.cloudId && !recordedCloudId) await recordTenantCloudId(db, existing.tenantId, site.cloudId);
}

/**
 * A verified `installed` callback, each signed callback once: the site's tenant is found (by this
 * installation, else by the site's cloud id or URL, so a Confluence install joins its Jira site's
 * tenant) or created with the default requirement types; the installation takes the new shared
 * secret, and the tenant is open again. A new clientKey never takes the place of an installation
 * still installed (only of an uninstalled one).
 */
export async function recordInstallation(
  db: Db,
  payload: InstallPayload,
  token: LifecycleToken,
): Promise<{ tenantId: string; created: boolean }> {
  const product = productOf(payload);
  const baseUrl = payload.baseUrl.replace(/\/+$/, "");
  const { sharedSecret, ...clientInfo } = payload;
  const recorded = await db.transaction(async (trx) => {
    await refuseReplay(trx, token);
    const existing = await findInstallationByClientKey(trx, payload.clientKey);
    const cloudId = typeof payload.cloudId === "string" && payload.cloudId !== "" ? payload.cloudId : undefined;
    if (existing) await keepSite(trx, existing, { baseUrl, cloudId });
    const tenant = existing
      ? { tenantId: existing.tenantId, created: false }
      : await findOrCreateSiteTenant(trx, { siteUrl: siteUrlOf(baseUrl), cloudId });
    if (!existing && !tenant.created && (await findOtherEnabledInstallation(trx, tenant.tenantId, product, payload.clientKey))) {
      throw conflict(`This site's ${product === "jira" ? "Jira" : "Confluence"} has rmCloud installed under another client key`);
    }
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
 * A verified `uninstalled` callback, each signed callback once: the installation is disabled (its JWTs and webhooks are refused
 * from now on) and the tenant closes once none of its products has rmCloud installed. Data stays.
 */
export async function recordUninstallation(db: Db, clientKey: string, token: LifecycleToken): Promise<void> {
  const tenantId = await db.transaction(async (trx) => {
    await refuseReplay(trx, token);
    const disabledTenantId = await disableInstallation(trx, clientKey);
    if (disabledTenantId) await refreshTenantActive(trx, disabledTenantId);
    return disabledTenantId;
  });
  if (tenantId) forgetInstallationsOf(tenantId);
}
