import { createContext, type ReactNode, Suspense, useContext, useEffect, useMemo, useState } from "react";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import type { FlagRequest } from "./flagRequest.js";

export type Flags = {
  /** A success toast with one of spec section 8's success messages. */
  success(message: string): void;
  /** An error toast: title 'Error' unless given, text as spec section 8 words it. */
  error(message: string, title?: string): void;
};

// Atlaskit's flag group (and its top layer) loads with the first toast, not with the first screen (issue 39).
const FlagGroup = lazyNamed(() => import("./FlagGroup.js"), "FlagGroup");

const FlagsContext = createContext<Flags | undefined>(undefined);

export function FlagsProvider({ children }: { children: ReactNode }) {
  const [requests, setRequests] = useState<FlagRequest[]>([]);
  const flags = useMemo<Flags>(() => {
    const show = (request: Omit<FlagRequest, "id">) => setRequests((shown) => [...shown, { ...request, id: shown.length }]);
    return {
      success: (message) => show({ kind: "success", title: message }),
      error: (message, title = "Error") => show({ kind: "error", title, description: message }),
    };
  }, []);
  return (
    <FlagsContext.Provider value={flags}>
      {children}
      {requests.length > 0 ? (
        <Suspense fallback={null}>
          <FlagGroup requests={requests} />
        </Suspense>
      ) : null}
    </FlagsContext.Provider>
  );
}

export function useFlags(): Flags {
  const flags = useContext(FlagsContext);
  if (!flags) throw new Error("useFlags needs a FlagsProvider above it");
  return flags;
}

/** An error toast when a load fails: `message` is the toast's text then, undefined while nothing failed. */
export function useLoadErrorFlag(message: string | undefined): void {
  const flags = useFlags();
  useEffect(() => {
    if (message) flags.error(message);
  }, [message, flags]);
}
