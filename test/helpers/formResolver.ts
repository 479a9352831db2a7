import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldValues } from "react-hook-form";
import type { z } from "zod";

/**
 * What a dialog's react-hook-form zod resolver makes of its form values: the values it submits
 * (when valid), its errors as the fields show them, and the top-level fields' messages.
 */
export async function resolveForm<Input extends FieldValues, Output>(schema: z.ZodType<Output, Input>, values: Partial<Input>) {
  const resolved = await zodResolver(schema)(values as Input, undefined, { fields: {}, shouldUseNativeValidation: false });
  const errors: FieldErrors<Input> = resolved.errors;
  const messages = Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message]));
  return { values: resolved.values as Output, errors, messages };
}
