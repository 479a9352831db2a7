import http from "node:http";
import net, { type AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, listen, STOP_IDLE_MS } from "./listen.js";

const agents: http.Agent[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) agent.destroy();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A client that keeps its connections open between requests, as a load balancer's pool does. */
function keptAliveClient(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return (path: string) =>
    new Promise<{ status: number; reusedSocket: boolean; connection: string | undefined }>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket, connection: res.headers.connection }));
        res.on("error", reject);
      });
      req.on("error", reject);
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long `promise` takes, or "unsettled" when it outlasts `limitMs`. */
async function durationOf(promise: Promise<unknown>, limitMs: number): Promise<number | "unsettled"> {
  const started = Date.now();
  const settled = await Promise.race([promise.then(() => true), sleep(limitMs).then(() => false)]);
  return settled ? Date.now() - started : "unsettled";
}

describe("the add-on's HTTP server behind a load balancer", () => {
  it("keeps an idle connection open past Node's default 5 s, so a balancer reusing it gets an answer", async () => {
    const app = express();
    app.get("/healthz", (_req, res) => {
      res.json({ status: "ok" });
    });
    const { server } = await listen(app, 0);
    cleanups.push(() => server.close());
    const get = keptAliveClient((server.address() as AddressInfo).port);

    expect(await get("/healthz")).toMatchObject({ status: 200, reusedSocket: false });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await get("/healthz")).toMatchObject({ status: 200, reusedSocket: true });
  });
});

describe("a client that sends its request slowly (slow-loris)", () => {
  it(
    "gets 408 and its connection closed once its headers outlast the headers timeout, while others are answered",
    async () => {
      const app = express();
      app.get("/healthz", (_req, res) => {
        res.json({ status: "ok" });
      });
      const { server } = await listen(app, 0, "127.0.0.1");
      cleanups.push(() => server.close());
      const { port } = server.address() as AddressInfo;

      const started = Date.now();
      const socket = net.connect(port, "127.0.0.1");
      let answer = "";
      socket.on("data", (data) => {
        answer += String(data);
      });
      socket.write("GET /healthz HTTP/1.1\r\nHost: rmcloud\r\n");
      const drip = setInterval(() => socket.write("X-Slowly: yes\r\n"), 500);
      cleanups.push(() => {
        clearInterval(drip);
        socket.destroy();
      });
      expect((await keptAliveClient(port)("/healthz")).status).toBe(200);
      const closedAfter = await new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - started)));
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    },
    HEADERS_TIMEOUT_MS + 10_000,
  );
});

describe("stopping the HTTP server while a load balancer holds kept-alive connections", () => {
  /** An app whose /slow answers `afterMs` after it was asked, and tells when a request reached it. */
  function slowApp(afterMs: number) {
    const app = express();
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get("/fast", (_req, res) => {
      res.send("ok");
    });
    app.get("/slow", (_req, res) => {
      arrived();
      setTimeout(() => res.send("done"), afterMs);
    });
    app.get("/streamed", (_req, res) => {
      arrived();
      res.write("first part, headers sent with keep-alive; ");
      setTimeout(() => res.end("last part"), afterMs);
    });
    app.get("/endless", (_req, res) => {
      arrived();
      res.write("never ends");
    });
    return { app, reached };
  }

  it("answers a request in flight with Connection: close and stops once it is done, not after the keep-alive time", async () => {
    const { app, reached } = slowApp(300);
    const { server, stop } = await listen(app, 0);
    const port = (server.address() as AddressInfo).port;
    const idle = keptAliveClient(port);
    const busy = keptAliveClient(port);
    expect(await idle("/fast")).toMatchObject({ status: 200 });

    const answer = busy("/slow");
    await reached;
    const stopping = stop();
    expect(await answer).toMatchObject({ status: 200, connection: "close" });
    const took = await durationOf(stopping, 3_000);
    expect(took).not.toBe("unsettled");
    expect(took).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });

  it("closes a connection whose streamed response already promised keep-alive once that response ends", async () => {
    const { app, reached } = slowApp(300);
    const { server, stop } = await listen(app, 0);
    const answer = keptAliveClient((server.address() as AddressInfo).port)("/streamed");
    await reached;

    const took = await durationOf(stop(), 3_000);
    expect(await answer).toMatchObject({ status: 200, connection: "keep-alive" });
    expect(took).not.toBe("unsettled");
  });

  it("answers a request its client sends on an idle kept-alive connection just after the stop began, then closes the connection once idle", async () => {
    const { app } = slowApp(0);
    const { server, stop } = await listen(app, 0);
    const balancer = keptAliveClient((server.address() as AddressInfo).port);
    expect(await balancer("/fast")).toMatchObject({ status: 200, connection: "keep-alive" });

    const stopping = stop();
    expect(await balancer("/fast")).toMatchObject({ status: 200, reusedSocket: true, connection: "close" });
    const took = await durationOf(stopping, 3_000);
    expect(took).not.toBe("unsettled");
  });

  it("closes a kept-alive connection no request comes on within STOP_IDLE_MS of the stop", async () => {
    const { app } = slowApp(0);
    const { server, stop } = await listen(app, 0);
    expect(await keptAliveClient((server.address() as AddressInfo).port)("/fast")).toMatchObject({ status: 200 });

    const took = await durationOf(stop(), 3_000);
    expect(took).toBeGreaterThanOrEqual(STOP_IDLE_MS - 100);
    expect(took).toBeLessThan(STOP_IDLE_MS + 1000);
  });

  it("cuts a response that outlasts the grace time", async () => {
    const { app, reached } = slowApp(0);
    const { server, stop } = await listen(app, 0);
    const answer = keptAliveClient((server.address() as AddressInfo).port)("/endless");
    await reached;

    const took = await durationOf(stop(200), 3_000);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(3_000);
    await expect(answer).rejects.toThrow();
  });
});
