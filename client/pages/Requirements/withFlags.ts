import type { Flags } from "../../components/Flags/Flags.js";

/**
 * Runs a change and reports it with spec section 8's toasts: the success message, or
 * "<failure>: <server error text>" titled Error. Rethrows so that the dialog stays open.
 */
export async function withFlags<T>(
  flags: Flags,
  action: () => Promise<T>,
  messages: { success: string; failure: string },
): Promise<T> {
  try {
    const result = await action();
    flags.success(messages.success);
    return result;
  } catch (error) {
    flags.error(`${messages.failure}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/** 'Requirement …' for one, 'Requirements …' for several. */
export function requirementsNoun(count: number): "Requirement" | "Requirements" {
  return count === 1 ? "Requirement" : "Requirements";
}
