import type { Product } from "../connect/appToken.js";
import type { Db } from "./knex.js";

/** One Connect installation: a Jira or Confluence product of a tenant's site. */
export type Installation = {
  tenantId: string;
  clientKey: string;
  product: Product;
  baseUrl: string;
  sharedSecret: string;
  /** The install payload as the host sent it, without the shared secret (kept in its own column). */
  clientInfo: Record<string, unknown>;
  enabled: boolean;
  tenantActive: boolean;
};

type InstallationRow = {
  tenant_id: string;
  client_key: string;
  product: Product;
  base_url: string;
  shared_secret: string;
  client_info: Record<string, unknown>;
  enabled: boolean;
  active: boolean;
};

const toInstallation = (row: InstallationRow): Installation => ({
  tenantId: row.tenant_id,
  clientKey: row.client_key,
  product: row.product,
  baseUrl: row.base_url,
  sharedSecret: row.shared_secret,
  clientInfo: row.client_info,
  enabled: row.enabled,
  tenantActive: row.active,
});

const withTenant = (db: Db) =>
  db("installations as i")
    .join("tenants as t", "t.tenant_id", "i.tenant_id")
    .select<InstallationRow[]>(
      "i.tenant_id",
      "i.client_key",
      "i.product",
      "i.base_url",
      "i.shared_secret",
      "i.client_info",
      "i.enabled",
      "t.active",
    );

/**
 * Whether an app token may still be used: its site has rmCloud installed and the installation
 * that issued it (its clientKey) was not uninstalled since. One primary-key lookup on each table.
 */
export async function isInstallationOpen(db: Db, tenantId: string, clientKey: string): Promise<boolean> {
  const row = await db("installations as i")
    .join("tenants as t", "t.tenant_id", "i.tenant_id")
    .where({ "i.tenant_id": tenantId, "i.client_key": clientKey, "i.enabled": true, "t.active": true })
    .first(db.raw("1 AS open"));
  return row !== undefined;
}

export async function findInstallationByClientKey(db: Db, clientKey: string): Promise<Installation | undefined> {
  const row = await withTenant(db).where("i.client_key", clientKey).first();
  return row ? toInstallation(row) : undefined;
}

export async function findEnabledInstallation(db: Db, tenantId: string, product: Product): Promise<Installation | undefined> {
  const row = await withTenant(db).where({ "i.tenant_id": tenantId, "i.product": product, "i.enabled": true }).first();
  return row ? toInstallation(row) : undefined;
}

export async function listEnabledInstallations(db: Db): Promise<Installation[]> {
  const rows = await withTenant(db).where("i.enabled", true).orderBy("i.client_key");
  return rows.map(toInstallation);
}

type SiteTenant = { tenant_id: string; site_url: string; cloud_id: string | null };

const siteTenantWhere = (db: Db, where: Partial<SiteTenant>): Promise<SiteTenant | undefined> =>
  db("tenants").where(where).first("tenant_id", "site_url", "cloud_id");

/**
 * The tenant a site's new installation (a clientKey not seen before) belongs to, created with
 * `created: true` when the site has none: the tenant of the site's cloud id, else the tenant of its
 * URL (how a Confluence install joins its Jira site's). A URL whose tenant belongs to another
 * cloud has changed hands: that tenant keeps its data but gives the URL up, and the new site gets
 * a tenant of its own. A renamed site takes its new URL along.
 */
export async function findOrCreateSiteTenant(
  db: Db,
  site: { siteUrl: string; cloudId: string | undefined },
): Promise<{ tenantId: string; created: boolean }> {
  const { siteUrl, cloudId } = site;
  const byCloud = cloudId ? await siteTenantWhere(db, { cloud_id: cloudId }) : undefined;
  const bySite = await siteTenantWhere(db, { site_url: siteUrl });
  if (byCloud) {
    if (byCloud.site_url !== siteUrl) await moveTenantToSiteUrl(db, byCloud.tenant_id, siteUrl);
    return { tenantId: byCloud.tenant_id, created: false };
  }
  if (bySite) {
    // Its cloud id is not this site's (that tenant would have been found above) unless unknown.
    const sameSite = !cloudId || bySite.cloud_id === null;
    if (!sameSite) await releaseSiteUrl(db, bySite);
    else {
      if (cloudId) await recordTenantCloudId(db, bySite.tenant_id, cloudId);
      return { tenantId: bySite.tenant_id, created: false };
    }
  }
  const inserted = await db("tenants")
    .insert({ site_url: siteUrl, cloud_id: cloudId ?? null })
    .onConflict("site_url")
    .ignore()
    .returning("tenant_id");
  // A concurrent install of the same site (its other product) created it first.
  const tenantId = inserted[0]?.tenant_id ?? (await siteTenantWhere(db, { site_url: siteUrl }))?.tenant_id;
  if (!tenantId) throw new Error(`The tenant of ${siteUrl} could not be created`);
  return { tenantId, created: inserted.length > 0 };
}

/** The site a tenant belongs to: its URL and, once an install named it, its cloud id. */
export async function siteOfTenant(db: Db, tenantId: string): Promise<{ siteUrl: string; cloudId: string | null } | undefined> {
  const row = await siteTenantWhere(db, { tenant_id: tenantId });
  return row ? { siteUrl: row.site_url, cloudId: row.cloud_id } : undefined;
}

/** A renamed site takes its new URL along; a tenant that held that URL before gives it up (releaseSiteUrl). */
export async function moveTenantToSiteUrl(db: Db, tenantId: string, siteUrl: string): Promise<void> {
  const holder = await siteTenantWhere(db, { site_url: siteUrl });
  if (holder?.tenant_id === tenantId) return;
  if (holder) await releaseSiteUrl(db, holder);
  await db("tenants").where({ tenant_id: tenantId }).update({ site_url: siteUrl });
}

/** The enabled installation of a tenant's product under another clientKey, if any. */
export async function findOtherEnabledInstallation(
  db: Db,
  tenantId: string,
  product: Product,
  clientKey: string,
): Promise<string | undefined> {
  const row = await db("installations")
    .where({ tenant_id: tenantId, product, enabled: true })
    .whereNot({ client_key: clientKey })
    .first("client_key");
  return row?.client_key;
}

/** A tenant recorded before cloud ids were kept learns its site's on the site's next install. */
export async function recordTenantCloudId(db: Db, tenantId: string, cloudId: string): Promise<void> {
  await db("tenants").where({ tenant_id: tenantId }).whereNull("cloud_id").update({ cloud_id: cloudId });
}

/** The earlier owner of a URL keeps its tenant under a name no site has, still telling where it came from. */
async function releaseSiteUrl(db: Db, tenant: SiteTenant): Promise<void> {
  await db("tenants")
    .where({ tenant_id: tenant.tenant_id })
    .update({ site_url: `${tenant.site_url}#released-${tenant.tenant_id}` });
}

/** A reinstall of the site's product under another clientKey replaces the earlier (uninstalled) installation. */
export async function deleteOtherInstallations(db: Db, tenantId: string, product: Product, clientKey: string): Promise<void> {
  await db("installations").where({ tenant_id: tenantId, product }).whereNot({ client_key: clientKey }).delete();
}

export async function upsertInstallation(
  db: Db,
  tenantId: string,
  installation: Pick<Installation, "clientKey" | "product" | "baseUrl" | "sharedSecret" | "clientInfo">,
): Promise<void> {
  await db("installations")
    .insert({
      tenant_id: tenantId,
      client_key: installation.clientKey,
      product: installation.product,
      base_url: installation.baseUrl,
      shared_secret: installation.sharedSecret,
      client_info: JSON.stringify(installation.clientInfo),
      enabled: true,
    })
    .onConflict("client_key")
    .merge({
      base_url: installation.baseUrl,
      shared_secret: installation.sharedSecret,
      client_info: JSON.stringify(installation.clientInfo),
      enabled: true,
      updated_at: db.fn.now(),
    });
}

export async function disableInstallation(db: Db, clientKey: string): Promise<string | undefined> {
  const [row] = await db("installations")
    .where({ client_key: clientKey })
    .update({ enabled: false, updated_at: db.fn.now() })
    .returning("tenant_id");
  return row?.tenant_id;
}

/** A tenant is open while at least one product of its site has rmCloud installed (docs/decisions.md). */
export async function refreshTenantActive(db: Db, tenantId: string): Promise<boolean> {
  const enabled = await db("installations").where({ tenant_id: tenantId, enabled: true }).first("client_key");
  const active = enabled !== undefined;
  await db("tenants")
    .where({ tenant_id: tenantId })
    .update({ active, uninstalled_at: active ? null : db.fn.now() });
  return active;
}
