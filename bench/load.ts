import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export type LoadOptions = {
  url: string;
  /** Requests (a path, and headers such as a site's token), taken in turn by the connections. */
  requests: { path: string; headers?: Record<string, string> }[];
  connections: number;
  durationSeconds: number;
};

export type LoadResult = { requestsPerSecond: number; p99Ms: number; non2xx: number; errors: number };

/** Fixed-duration HTTP load from autocannon in a child process; throws when any answer was not a 2xx. */
export async function httpLoad(options: LoadOptions): Promise<LoadResult> {
  const worker = fork(fileURLToPath(new URL("./loadWorker.ts", import.meta.url)), { execArgv: process.execArgv });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    worker.once("message", (message) => resolve(message as LoadResult));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the load generator exited with ${code}`));
    });
    worker.send(options);
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} answers were not 2xx and ${result.errors} requests failed`);
  }
  return result;
}
