import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import type { Flags } from "../components/Flags/toasts.js";

/**
 * What a query or mutation tells the user, declared where it is defined (client/api) so that every
 * screen using it reports the same way: spec section 8's load-error, success and failure toasts.
 */
declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: {
      /** The toast when the load fails (after its retry). */
      loadError?: string | ((error: Error) => string);
    };
    mutationMeta: {
      success?: string | ((variables: never) => string);
      /** The error toast's text, usually "<what failed>: <the server's error text>" (`becauseOf`). */
      failure?: (error: Error, variables: never) => string;
    };
  }
}

/** Spec section 8's failure toast: what failed, then the server's reason. */
export const becauseOf = (failure: string) => (error: Error) => `${failure}: ${error.message}`;

/** A caller's failure handler when there is nothing left to do: the mutation's own toast has told the user. */
export const failureShown = () => undefined;

function textOf<A>(message: string | ((argument: A) => string), argument: A): string {
  return typeof message === "function" ? message(argument) : message;
}

/**
 * The one query client: a failed load or change reaches the user through its cache handlers, never
 * through per-screen effects; a mutation without messages reports nothing itself (its caller does).
 */
export function createQueryClient(flags: Flags): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
    queryCache: new QueryCache({
      onError: (error, query) => {
        const loadError = query.meta?.loadError;
        if (loadError) flags.error(textOf(loadError, error));
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (_data, variables, _context, mutation) => {
        const success = mutation.meta?.success;
        if (success) flags.success(textOf(success, variables as never));
      },
      onError: (error, variables, _context, mutation) => {
        const failure = mutation.meta?.failure;
        if (failure) flags.error(failure(error, variables as never));
      },
    }),
  });
}
