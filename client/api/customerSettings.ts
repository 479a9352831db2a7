import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CustomerSettings, UpdateCustomerSettingsInput } from "../../common/schemas/customerSettings.js";
import { api } from "./client.js";

export const customerSettingsKey = ["customerSettings"] as const;

export function useCustomerSettings() {
  return useQuery({
    queryKey: customerSettingsKey,
    queryFn: () => api.get<CustomerSettings>("/api/customer/settings"),
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
  });
}
