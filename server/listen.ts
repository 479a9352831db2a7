import { createServer, type Server, type ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import type { Express } from "express";

/**
 * How long an idle kept-alive connection stays open. The load balancer in front of the replicas
 * keeps its connections to them for 60 s (AWS ALB's default idle timeout); if Node closed first
 * (its default is 5 s), a request the balancer sent just as Node closed would fail with a 502.
 * So the add-on outlasts the balancer.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Slow clients (slow-loris): a request's headers must arrive within HEADERS_TIMEOUT_MS of its first
 * byte and the whole request within REQUEST_TIMEOUT_MS, else Node answers 408 and closes the
 * connection; an idle kept-alive connection is not cut by them (Node 20 times a request from its
 * start). Checked every second, not Node's default 30 s. Bodies are small: files go to storage.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * How long a stopping server lets the requests in flight finish before it cuts their connections.
 * Under Docker's 10 s (and Kubernetes' 30 s) between SIGTERM and SIGKILL, so that the database
 * pool and the error reports still close after it.
 */
const STOP_GRACE_MS = 8_000;

type Listening = {
  server: Server;
  /**
   * Stops accepting connections and resolves once the open ones are closed: each request in flight
   * (or arriving on a kept-alive connection meanwhile) is answered with `Connection: close`, and
   * whatever is still open after `graceMs` is cut. Without this, one kept-alive connection of the
   * balancer would hold the process up to KEEP_ALIVE_TIMEOUT_MS, past the orchestrator's SIGKILL.
   */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * After stopping, a kept-alive connection is closed once it has been idle this long, not at once:
 * its client may be sending its next request at that very moment (a balancer reuses a connection as
 * soon as an answer is in), and would meet a reset. A request that arrives meanwhile is answered,
 * with `Connection: close`.
 */
export const STOP_IDLE_MS = 1000;
const STOP_SWEEP_MS = 100;

/** `host` undefined: every interface (production, in a container); development passes the loopback (Config.host). */
export function listen(app: Express, port: number, host?: string): Promise<Listening> {
  return new Promise((resolve) => {
    const inFlight = new Set<ServerResponse>();
    /** Open connections without a request in flight, and since when. */
    const idleSince = new Map<Socket, number>();
    let stopping = false;
    const stop = (graceMs = STOP_GRACE_MS) =>
      new Promise<void>((stopped) => {
        stopping = true;
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        const sweep = setInterval(() => {
          for (const [socket, since] of idleSince) if (Date.now() - since >= STOP_IDLE_MS) socket.destroy();
        }, STOP_SWEEP_MS);
        // net's close, not http's: it stops accepting and calls back once every connection is closed,
        // without http's closing of the idle ones at once (the sweep closes them once really idle).
        NetServer.prototype.close.call(server, () => {
          clearTimeout(cut);
          clearInterval(sweep);
          stopped();
        });
        for (const res of inFlight) closeConnectionAfter(res);
      });

    const server = createServer(
      {
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: 1000,
      },
      app,
    );
    const listening = () => resolve({ server, stop });
    if (host === undefined) server.listen(port, listening);
    else server.listen(port, host, listening);
    server.on("connection", (socket: Socket) => {
      idleSince.set(socket, Date.now());
      socket.once("close", () => idleSince.delete(socket));
    });
    // Ahead of Express, so a response it writes at once still gets the header when stopping.
    server.prependListener("request", (req, res) => {
      idleSince.delete(req.socket);
      res.once("close", () => {
        if (!req.socket.destroyed) idleSince.set(req.socket, Date.now());
      });
      if (stopping) {
        closeConnectionAfter(res);
        return;
      }
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
    });
  });
}

/**
 * A response not yet started tells its client not to reuse the connection, and Node closes it after
 * the response. One whose headers already promised keep-alive (a streamed export) is left to the
 * sweep once it has finished, when its connection is idle.
 */
function closeConnectionAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
}
