import type { Db } from "./knex.js";

/** Which of these notifications (by delivery key) were already sent. */
export async function deliveredKeys(db: Db, tenantId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows: { delivery_key: string }[] = await db("notification_deliveries")
    .where({ tenant_id: tenantId })
    .whereIn("delivery_key", keys)
    .select("delivery_key");
  return new Set(rows.map((row) => row.delivery_key));
}

export async function markDelivered(db: Db, tenantId: string, key: string): Promise<void> {
  await db("notification_deliveries").insert({ tenant_id: tenantId, delivery_key: key }).onConflict(["tenant_id", "delivery_key"]).ignore();
}
