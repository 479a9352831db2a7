import type { Db } from "./knex.js";

export type Tenant = { tenantId: string; siteUrl: string; active: boolean };

export async function findTenant(db: Db, tenantId: string): Promise<Tenant | undefined> {
  const row = await db("tenants").where({ tenant_id: tenantId }).first();
  return row ? { tenantId: row.tenant_id, siteUrl: row.site_url, active: row.active } : undefined;
}

/** What GET /api/user shows of the site, in one query: its URL and whether Confluence has rmCloud installed. */
export async function findTenantSite(db: Db, tenantId: string): Promise<{ siteUrl: string; installedOnConfluence: boolean } | undefined> {
  const row = await db("tenants as t")
    .where("t.tenant_id", tenantId)
    .first(
      "t.site_url",
      db.raw(
        "EXISTS (SELECT 1 FROM installations i WHERE i.tenant_id = t.tenant_id AND i.product = 'confluence' AND i.enabled) AS installed_on_confluence",
      ),
    );
  return row ? { siteUrl: row.site_url, installedOnConfluence: Boolean(row.installed_on_confluence) } : undefined;
}
