import autocannon from "autocannon";
import type { LoadOptions, LoadResult } from "./load.js";

/**
 * The load generator in a process of its own (forked by load.ts), so its own CPU use does not
 * share an event loop with the servers it measures. Answers one LoadResult over IPC.
 */
process.once("message", (options: LoadOptions) => {
  let next = 0;
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.durationSeconds,
      requests: [
        {
          setupRequest: (request) => {
            const planned = options.requests[next++ % options.requests.length];
            return { ...request, path: planned?.path ?? "/", headers: { ...request.headers, ...planned?.headers } };
          },
        },
      ],
    },
    (error, result) => {
      if (error) throw error;
      const answer: LoadResult = {
        requestsPerSecond: result.requests.average,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      };
      process.send?.(answer, () => process.exit(0));
    },
  );
  autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
});
