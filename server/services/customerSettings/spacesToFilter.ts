import { parseSpaceKeys } from "../../../common/schemas/customerSettings.js";
import { getCustomerSettings } from "../../db/customerSettingsStore.js";
import type { Db } from "../../db/knex.js";

/** The Confluence space keys content search and pickers are limited to; empty means every space. */
export async function spacesToFilter(db: Db, tenantId: string): Promise<string[]> {
  const settings = await getCustomerSettings(db, tenantId);
  return parseSpaceKeys(settings.confluence_spaces_to_filter);
}
