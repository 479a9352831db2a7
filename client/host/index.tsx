import { createContext, type ReactNode, useContext } from "react";
import { connectHost } from "./connectHost.js";
import type { Host } from "./types.js";

export type { Host } from "./types.js";

let host: Host | undefined;

/** The host of this page. Every host call of the app goes through it (a Forge build swaps the implementation here). */
export function getHost(): Host {
  host ??= connectHost();
  return host;
}

const HostContextReact = createContext<Host | undefined>(undefined);

export function HostProvider({ host: given, children }: { host?: Host; children: ReactNode }) {
  return <HostContextReact.Provider value={given ?? getHost()}>{children}</HostContextReact.Provider>;
}

export function useHost(): Host {
  return useContext(HostContextReact) ?? getHost();
}
