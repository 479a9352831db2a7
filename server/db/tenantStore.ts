import type { Db } from "./knex.js";

export type Tenant = { tenantId: string; siteUrl: string; active: boolean };

export async function findTenant(db: Db, tenantId: string): Promise<Tenant | undefined> {
  const row = await db("tenants").where({ tenant_id: tenantId }).first();
  return row ? { tenantId: row.tenant_id, siteUrl: row.site_url, active: row.active } : undefined;
}
