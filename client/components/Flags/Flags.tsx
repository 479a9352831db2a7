import { FlagsProvider as AtlaskitFlagsProvider, useFlags as useAtlaskitFlags } from "@atlaskit/flag";
import { type ReactNode, useMemo } from "react";

export type Flags = {
  /** A success toast with one of spec section 8's success messages. */
  success(message: string): void;
  /** An error toast: title 'Error' unless given, text as spec section 8 words it. */
  error(message: string, title?: string): void;
};

export function FlagsProvider({ children }: { children: ReactNode }) {
  return <AtlaskitFlagsProvider>{children}</AtlaskitFlagsProvider>;
}

export function useFlags(): Flags {
  const { showFlag } = useAtlaskitFlags();
  return useMemo(
    () => ({
      success: (message) => {
        showFlag({ appearance: "success", title: message, isAutoDismiss: true });
      },
      error: (message, title = "Error") => {
        showFlag({ appearance: "error", title, description: message, isAutoDismiss: true });
      },
    }),
    [showFlag],
  );
}
