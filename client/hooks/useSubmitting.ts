import { useState } from "react";

/**
 * Spec section 4: a dialog shows a loading state while it submits and re-enables on failure; on
 * success it closes. The action reports its own failure (a toast), so the error stops here.
 */
export function useSubmitting(onDone: () => void) {
  const [isSubmitting, setSubmitting] = useState(false);
  const submit = async (action: () => Promise<unknown>) => {
    setSubmitting(true);
    try {
      await action();
      onDone();
    } catch {
      setSubmitting(false);
    }
  };
  return { isSubmitting, submit };
}
