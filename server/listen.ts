import type { Server } from "node:http";
import type { Express } from "express";

/**
 * How long an idle kept-alive connection stays open. The load balancer in front of the replicas
 * keeps its connections to them for 60 s (AWS ALB's default idle timeout); if Node closed first
 * (its default is 5 s), a request the balancer sent just as Node closed would fail with a 502.
 * So the add-on outlasts the balancer.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function listen(app: Express, port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(port, () => resolve(server));
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Node cuts a request whose headers take longer than this, and it must not do so at the end of an idle time.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  });
}
