import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "./listen.js";

describe("the add-on's HTTP server behind a load balancer", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("keeps an idle connection open past Node's default 5 s, so a balancer reusing it gets an answer", async () => {
    const app = express();
    app.get("/healthz", (_req, res) => {
      res.json({ status: "ok" });
    });
    const server = await listen(app, 0);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(
      () => agent.destroy(),
      () => server.close(),
    );
    const { port } = server.address() as AddressInfo;
    const get = () =>
      new Promise<{ status: number; reusedSocket: boolean }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
        });
        req.on("error", reject);
      });

    expect(await get()).toEqual({ status: 200, reusedSocket: false });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await get()).toEqual({ status: 200, reusedSocket: true });
  });
});
