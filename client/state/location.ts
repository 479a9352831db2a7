import { useSyncExternalStore } from "react";

/**
 * The iframe's own location. Pages of one entry switch in place (no reload, so the host bridge and
 * the query cache stay); the iframe keeps no history entries of its own, the host history has them.
 */
const listeners = new Set<() => void>();

export function replaceLocation(url: string): void {
  window.history.replaceState(window.history.state, "", url);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => "/",
  );
}
