import { parseSpaceKeys } from "../../../common/schemas/customerSettings.js";
import { getCustomerSettings } from "../../db/customerSettingsStore.js";
import type { Actor, ServiceDeps } from "../context.js";

/** The Confluence space keys content search and pickers are limited to; empty means every space. */
export async function spacesToFilter(deps: ServiceDeps, actor: Actor): Promise<string[]> {
  const settings = await getCustomerSettings(deps.db, actor.tenantId);
  return parseSpaceKeys(settings.confluence_spaces_to_filter);
}
