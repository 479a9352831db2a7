import { loadConfig } from "../config.js";
import { createDb, type Db, dbOptionsFromConfig, migrateToLatest } from "../db/knex.js";
import { findTenantIdByIdOrSiteUrl, purgeTenantData } from "../db/tenantPurgeStore.js";
import { isEntryPoint } from "../isEntryPoint.js";
import { createObjectStorage, type ObjectStorage } from "../storage/index.js";

/**
 * Deletes one tenant's data for good: `npm run tenant:purge -- <site url or tenant id>`. Uninstalling
 * only closes a tenant's access; this is the command for a customer who asks for deletion. Its files
 * go first (attachments, imports, exports), then its rows in one transaction: a run that fails between
 * the two still finds the tenant, and running it again finishes the job.
 * Answers the rows deleted per table, or undefined when no tenant matches.
 */
export async function purgeTenant(
  deps: { db: Db; storage: ObjectStorage },
  idOrSiteUrl: string,
): Promise<Record<string, number> | undefined> {
  const tenantId = await findTenantIdByIdOrSiteUrl(deps.db, idOrSiteUrl);
  if (!tenantId) return undefined;
  await deps.storage.deleteTenantFiles(tenantId);
  return deps.db.transaction((trx) => purgeTenantData(trx, tenantId));
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
    const deleted = await purgeTenant({ db, storage: createObjectStorage(config) }, target);
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
