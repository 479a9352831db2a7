import type { CustomerSettings } from "../../common/schemas/customerSettings.js";
import type { Db } from "./knex.js";

/** A tenant that never saved its settings has everything off and no space filter. */
export const defaultCustomerSettings: CustomerSettings = {
  comment_on_associated_issues: false,
  send_email_notification_to_assignee: false,
  confluence_spaces_to_filter: "",
};

const columns = ["comment_on_associated_issues", "send_email_notification_to_assignee", "confluence_spaces_to_filter"];

export async function getCustomerSettings(db: Db, tenantId: string): Promise<CustomerSettings> {
  const row = await db("customer_settings").where({ tenant_id: tenantId }).first(columns);
  return row ? toSettings(row) : { ...defaultCustomerSettings };
}

export async function upsertCustomerSettings(db: Db, tenantId: string, changes: Partial<CustomerSettings>): Promise<CustomerSettings> {
  const [row] = await db("customer_settings")
    .insert({ ...defaultCustomerSettings, ...changes, tenant_id: tenantId })
    .onConflict("tenant_id")
    .merge({ ...changes, updated_at: db.fn.now() })
    .returning(columns);
  return toSettings(row);
}

function toSettings(row: Record<string, unknown>): CustomerSettings {
  return {
    comment_on_associated_issues: row.comment_on_associated_issues === true,
    send_email_notification_to_assignee: row.send_email_notification_to_assignee === true,
    confluence_spaces_to_filter: String(row.confluence_spaces_to_filter ?? ""),
  };
}
