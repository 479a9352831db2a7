import type { z } from "zod";
import { AppError } from "../errors.js";

/** Turns zod issues into the spec's `{"field": ["message"]}` body; issues without a path go under "Result". */
export function zodIssuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "Result";
    const messages = errors[field] ?? [];
    if (!messages.includes(issue.message)) messages.push(issue.message);
    errors[field] = messages;
  }
  return errors;
}

/** Parses untrusted input at the edge; a failure is a 400 in the spec's format and nothing runs. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const errors = zodIssuesToFieldErrors(result.error.issues);
    if (Object.keys(errors).length === 1 && errors.Result) {
      throw new AppError(400, { Result: errors.Result.join(", ") });
    }
    throw new AppError(400, errors);
  }
  return result.data;
}
