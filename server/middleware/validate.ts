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

export const NUL_MESSAGE = "Must not contain the NUL character (U+0000)";

/**
 * Where the input holds a NUL character (in a value or a key), as field paths. PostgreSQL cannot
 * store U+0000 in text, so it is refused here, once, for every schema, before any query runs.
 */
export function nulCharacterPaths(input: unknown, path: string[] = []): string[] {
  if (typeof input === "string") return input.includes("\u0000") ? [path.join(".")] : [];
  if (input === null || typeof input !== "object") return [];
  return Object.entries(input).flatMap(([key, value]) =>
    key.includes("\u0000") ? [[...path, key.replaceAll("\u0000", "")].join(".")] : nulCharacterPaths(value, [...path, key]),
  );
}

/** Parses untrusted input at the edge; a failure is a 400 in the spec's format and nothing runs. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const nulPaths = nulCharacterPaths(input);
  if (nulPaths.length > 0) {
    if (nulPaths.includes("")) throw new AppError(400, { Result: NUL_MESSAGE });
    throw new AppError(400, Object.fromEntries(nulPaths.map((field) => [field, [NUL_MESSAGE]])));
  }
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
