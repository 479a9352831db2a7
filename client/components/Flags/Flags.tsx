import { FlagsProvider as AtlaskitFlagsProvider, useFlags as useAtlaskitFlags } from "@atlaskit/flag";
import CheckCircleIcon from "@atlaskit/icon/core/check-circle";
import ErrorIcon from "@atlaskit/icon/core/error";
import { token } from "@atlaskit/tokens";
import { type ReactNode, useEffect, useMemo } from "react";

export type Flags = {
  /** A success toast with one of spec section 8's success messages. */
  success(message: string): void;
  /** An error toast: title 'Error' unless given, text as spec section 8 words it. */
  error(message: string, title?: string): void;
};

export function FlagsProvider({ children }: { children: ReactNode }) {
  return <AtlaskitFlagsProvider>{children}</AtlaskitFlagsProvider>;
}

/**
 * Normal-appearance flags with a coloured icon: Atlaskit's bold error flag hides its text until
 * expanded, and an error toast is only useful if the user reads why the save failed.
 */
export function useFlags(): Flags {
  const { showFlag } = useAtlaskitFlags();
  return useMemo(
    () => ({
      success: (message) => {
        showFlag({
          title: message,
          icon: <CheckCircleIcon label="Success" color={token("color.icon.success")} />,
          isAutoDismiss: true,
        });
      },
      error: (message, title = "Error") => {
        showFlag({
          title,
          description: message,
          icon: <ErrorIcon label="Error" color={token("color.icon.danger")} />,
          isAutoDismiss: true,
        });
      },
    }),
    [showFlag],
  );
}

/** An error toast when a load fails: `message` is the toast's text then, undefined while nothing failed. */
export function useLoadErrorFlag(message: string | undefined): void {
  const flags = useFlags();
  useEffect(() => {
    if (message) flags.error(message);
  }, [message, flags]);
}
