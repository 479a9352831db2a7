import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { HostClient } from "../../server/connect/hostClient.js";
import { HostCallError } from "../../server/connect/hostClientImpl.js";
import type { Db } from "../../server/db/knex.js";

export type StubHost = { url: string; close: () => Promise<void> };

/**
 * Jira over HTTP for the add-on's processes: each REST call is answered by `host` (a test's fake
 * Jira), a HostCallError as its status and Retry-After. Points the tenant's installation at it.
 */
export async function startStubHost(db: Db, tenantId: string, host: HostClient): Promise<StubHost> {
  const app = express();
  app.use(express.json());
  app.use(async (req, res) => {
    try {
      const answer = await host.call(tenantId, "jira", {
        method: req.method as "GET",
        path: req.originalUrl,
        body: req.method === "GET" ? undefined : req.body,
      });
      res.status(200).json(answer ?? {});
    } catch (error) {
      const failure = error instanceof HostCallError ? error : new HostCallError(500, "", String(error));
      if (failure.retryAfterSeconds !== undefined) res.set("Retry-After", String(failure.retryAfterSeconds));
      res.status(failure.status).json({ errorMessages: [failure.message] });
    }
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await db("installations").where({ tenant_id: tenantId }).update({ base_url: url });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
