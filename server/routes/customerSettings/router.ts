import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  CustomerSettingsSchema,
  UpdateCustomerSettingsResponseSchema,
  UpdateCustomerSettingsSchema,
} from "../../../common/schemas/customerSettings.js";
import { getCustomerSettings } from "../../db/customerSettingsStore.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { requireAdministrator } from "../../middleware/requireAdministrator.js";
import { parse } from "../../middleware/validate.js";
import { updateCustomerSettings } from "../../services/customerSettings/updateCustomerSettings.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/customer/settings",
    summary: "The site's settings (not in the spec: the settings form loads its values from here)",
    response: CustomerSettingsSchema,
  },
  {
    method: "patch",
    path: "/api/customer/settings",
    summary: "Change the site's settings; answers the two switches. Jira administrators only (403 otherwise)",
    body: UpdateCustomerSettingsSchema,
    response: UpdateCustomerSettingsResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();
  const administratorsOnly = requireAdministrator(deps);

  api.get(
    "/api/customer/settings",
    handle(async (req, res) => {
      const actor = authOf(req);
      res.json(await getCustomerSettings(deps.db, actor.tenantId));
    }),
  );

  api.patch(
    "/api/customer/settings",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const changes = parse(UpdateCustomerSettingsSchema, req.body ?? {});
      const settings = await updateCustomerSettings(deps, actor, changes);
      res.json({
        comment_on_associated_issues: settings.comment_on_associated_issues,
        send_email_notification_to_assignee: settings.send_email_notification_to_assignee,
      });
    }),
  );

  return api;
}
