import type { CustomerSettings } from "../../../common/schemas/customerSettings.js";
import { upsertCustomerSettings } from "../../db/customerSettingsStore.js";
import type { Db } from "../../db/knex.js";

export async function updateCustomerSettings(
  db: Db,
  tenantId: string,
  changes: Partial<CustomerSettings>,
): Promise<CustomerSettings> {
  const defined = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  ) as Partial<CustomerSettings>;
  return upsertCustomerSettings(db, tenantId, defined);
}
