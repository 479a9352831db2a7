import { loadConfig } from "../config.js";
import { createDb, type Db, dbOptionsFromConfig, migrateToLatest } from "../db/knex.js";
import { findTenantIdByIdOrSiteUrl, purgeTenantData } from "../db/tenantPurgeStore.js";
import { isEntryPoint } from "../isEntryPoint.js";

/**
 * Deletes one tenant's data for good, in one transaction: `npm run tenant:purge -- <site url or tenant id>`.
 * Uninstalling only closes a tenant's access; this is the command for a customer who asks for deletion.
 * Answers the rows deleted per table, or undefined when no tenant matches.
 */
export async function purgeTenant(db: Db, idOrSiteUrl: string): Promise<Record<string, number> | undefined> {
  return db.transaction(async (trx) => {
    const tenantId = await findTenantIdByIdOrSiteUrl(trx, idOrSiteUrl);
    return tenantId ? purgeTenantData(trx, tenantId) : undefined;
  });
}

if (isEntryPoint(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error("Usage: npm run tenant:purge -- <site url or tenant id>");
    process.exit(2);
  }
  const config = loadConfig();
  const db = createDb(dbOptionsFromConfig(config));
  try {
    await migrateToLatest(db);
    const deleted = await purgeTenant(db, target);
    if (!deleted) {
      console.error(`No tenant matches ${target}`);
      process.exitCode = 1;
    } else {
      const rows = Object.entries(deleted).filter(([, count]) => count > 0);
      console.log(`Purged ${target}: ${rows.map(([table, count]) => `${table} ${count}`).join(", ")}`);
    }
  } finally {
    await db.destroy();
  }
}
