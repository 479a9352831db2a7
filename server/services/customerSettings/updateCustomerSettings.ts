import type { CustomerSettings } from "../../../common/schemas/customerSettings.js";
import { upsertCustomerSettings } from "../../db/customerSettingsStore.js";
import type { Actor, ServiceDeps } from "../context.js";

export async function updateCustomerSettings(
  deps: ServiceDeps,
  actor: Actor,
  changes: Partial<CustomerSettings>,
): Promise<CustomerSettings> {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<CustomerSettings>;
  return upsertCustomerSettings(deps.db, actor.tenantId, defined);
}
