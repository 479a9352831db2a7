import type { FlagRequest } from "./flagRequest.js";

export type Flags = {
  /** A success toast with one of spec section 8's success messages. */
  success(message: string): void;
  /** An error toast: title 'Error' unless given, text as spec section 8 words it. */
  error(message: string, title?: string): void;
};

/**
 * Every toast asked for, in order. Components ask through useFlags and the query client's cache
 * handlers (which live outside React) ask here directly, so every failure reaches the user one way.
 */
export class Toasts implements Flags {
  private requests: readonly FlagRequest[] = [];
  private readonly listeners = new Set<() => void>();

  success = (message: string) => this.show({ kind: "success", title: message });

  error = (message: string, title = "Error") => this.show({ kind: "error", title, description: message });

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): readonly FlagRequest[] => this.requests;

  private show(request: Omit<FlagRequest, "id">) {
    this.requests = [...this.requests, { ...request, id: this.requests.length }];
    for (const listener of this.listeners) listener();
  }
}
