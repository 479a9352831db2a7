import { z } from "zod";

export const MAX_SPACES_TO_FILTER_LENGTH = 2000;

/** Spec section 3: what an administrator switches on for the whole site. */
export const CustomerSettingsSchema = z.object({
  comment_on_associated_issues: z.boolean(),
  send_email_notification_to_assignee: z.boolean(),
  /** Confluence space keys separated by commas; empty means no filter. */
  confluence_spaces_to_filter: z.string(),
});
export type CustomerSettings = z.infer<typeof CustomerSettingsSchema>;

/** PATCH /api/customer/settings: any of the three; what is left out keeps its value. */
export const UpdateCustomerSettingsSchema = z.object({
  comment_on_associated_issues: z.boolean({ error: "Must be true or false" }).optional(),
  send_email_notification_to_assignee: z.boolean({ error: "Must be true or false" }).optional(),
  confluence_spaces_to_filter: z
    .string({ error: "Must be comma-separated space keys" })
    .max(MAX_SPACES_TO_FILTER_LENGTH, `Enter no more than ${MAX_SPACES_TO_FILTER_LENGTH} characters`)
    .refine((value) => parseSpaceKeys(value).every((key) => !/\s/.test(key)), "Separate space keys with commas")
    .transform((value) => parseSpaceKeys(value).join(","))
    .optional(),
});
export type UpdateCustomerSettingsInput = z.input<typeof UpdateCustomerSettingsSchema>;

/** The settings form always sends all three. */
export const CustomerSettingsFormSchema = UpdateCustomerSettingsSchema.required();

/** The spec's PATCH answer echoes the two switches. */
export const UpdateCustomerSettingsResponseSchema = CustomerSettingsSchema.pick({
  comment_on_associated_issues: true,
  send_email_notification_to_assignee: true,
});

/** "DOCS, ~jane,, ENG" -> ["DOCS", "~jane", "ENG"]: trimmed, empty entries and repeats dropped. */
export function parseSpaceKeys(value: string): string[] {
  const keys = value
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  return [...new Set(keys)];
}
