import { createContext, type ReactNode, useContext } from "react";
import { connectHost } from "./connectHost.js";
import { forgeHost, runsInForge } from "./forgeHost.js";
import type { Host } from "./types.js";

export type { Host, HostContext, HostFlag, HostProduct, HostRequestOptions } from "./types.js";

let host: Host | undefined;

/**
 * The host of this page, chosen once from where it runs: Forge's Custom UI bridge when Forge serves
 * the page, Connect's AP otherwise (the default). Every host call of the app goes through it.
 */
export function getHost(): Host {
  host ??= runsInForge() ? forgeHost() : connectHost();
  return host;
}

const HostContextReact = createContext<Host | undefined>(undefined);

export function HostProvider({ host: given, children }: { host?: Host; children: ReactNode }) {
  return <HostContextReact.Provider value={given ?? getHost()}>{children}</HostContextReact.Provider>;
}

export function useHost(): Host {
  return useContext(HostContextReact) ?? getHost();
}
