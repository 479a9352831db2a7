import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { createApp } from "../../server/app.js";
import { signAppToken } from "../../server/connect/appToken.js";
import type { AppDeps } from "../../server/deps.js";
import { DomainEventBus } from "../../server/services/events.js";
import { createObjectStorage } from "../../server/storage/index.js";
import { createTenant, testConfig } from "../../test/helpers/app.js";
import { createBenchDb } from "../benchDb.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase } from "../types.js";

/**
 * The cost of our whole request path (token check, tenant check, validation, the detail's
 * queries, shaping) against a bare Express endpoint doing one indexed SELECT of the same row.
 */
const requirementDetail: BenchCase = {
  name: "requirement-detail",
  async run(context) {
    const { db, destroy } = await createBenchDb(context);
    const deps: AppDeps = {
      config: testConfig(),
      db,
      logger: pino({ level: "silent" }),
      events: new DomainEventBus(),
      hostClient: { call: async () => Promise.reject(new Error("no host in benchmarks")) },
      storage: createObjectStorage(testConfig()),
    } as AppDeps;
    const app = await createApp(deps);
    app.get("/bare/requirement/:id", async (req, res) => {
      res.json(await db("requirements").where({ tenant_id: tenantId, requirement_id: Number(req.params.id) }).first());
    });
    const server = app.listen(0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const tenant = await createTenant(db, "bench");
    const tenantId = tenant.tenantId;
    const token = await signAppToken(deps.config.appTokenSecret, {
      tenantId,
      accountId: "bench-user",
      product: "jira",
      clientKey: tenant.clientKey,
    });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return res.json();
    };

    const type = await call("POST", "/api/requirement/type", { requirement_type: { name: "System", prefix: "SYS" } });
    const requirement = await call("POST", "/api/requirement", {
      name: "The pump shall stop on occlusion",
      description: "Within 30 seconds at any rate.",
      project: 10000,
      parent_folder_id: null,
      requirement_type_id: type.requirement_type_id,
      issues: ["10001", "10002"],
    });
    const id = requirement.requirement_id;

    const ours = await medianMs(() => call("GET", `/api/requirement/${id}`), { iterations: 200, warmup: 20 });
    const baseline = await medianMs(() => call("GET", `/bare/requirement/${id}`), { iterations: 200, warmup: 20 });

    await new Promise((resolve) => server.close(resolve));
    await destroy();
    return [
      {
        case: "requirement-detail: GET /api/requirement/{id} vs bare indexed SELECT over HTTP",
        db: context.db,
        ours: round(ours),
        baseline: round(baseline),
        unit: "ms (median)",
        ratio: round(ours / baseline, 2),
      },
    ];
  },
};

export default requirementDetail;
