import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CustomerSettings, UpdateCustomerSettingsInput } from "../../common/schemas/customerSettings.js";
import { ApiError, api } from "./client.js";
import { SETTINGS_LOAD_ERROR } from "./loadErrors.js";

export const customerSettingsKey = ["customerSettings"] as const;

export function useCustomerSettings() {
  return useQuery({
    queryKey: customerSettingsKey,
    queryFn: () => api.get<CustomerSettings>("/api/customer/settings"),
    meta: { loadError: SETTINGS_LOAD_ERROR },
  });
}

export function useSaveCustomerSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdateCustomerSettingsInput) =>
      api.patch<Pick<CustomerSettings, "comment_on_associated_issues" | "send_email_notification_to_assignee">>(
        "/api/customer/settings",
        settings,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerSettingsKey }),
    meta: {
      success: "Settings saved successfully",
      // A refusal the user can act on (only Jira administrators may change the settings) says why; other failures keep the spec's text.
      failure: (error: Error) =>
        error instanceof ApiError && error.status === 403
          ? `There was an error saving your settings: ${error.message}`
          : "There was an error saving your settings",
    },
  });
}
