import { createContext, type ReactNode, Suspense, useContext, useSyncExternalStore } from "react";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import type { Flags, Toasts } from "./toasts.js";

export type { Flags } from "./toasts.js";

// Atlaskit's flag group (and its top layer) loads with the first toast, not with the first screen (issue 39).
const FlagGroup = lazyNamed(() => import("./FlagGroup.js"), "FlagGroup");

const FlagsContext = createContext<Flags | undefined>(undefined);

/** Shows every toast asked for through `toasts`, the one the query client reports its failures to. */
export function FlagsProvider({ toasts, children }: { toasts: Toasts; children: ReactNode }) {
  const requests = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot);
  return (
    <FlagsContext.Provider value={toasts}>
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
