import { Agent, request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/addonProcess.js";
import { insertRequirementRow } from "../helpers/app.js";
import { setUpFaultSite } from "./fixture.js";

const CLIENTS = 16;
const LOAD_BEFORE_STOP_MS = 1500;

const site = setUpFaultSite();

type Outcome = { status?: number; error?: string; sentAt: number; answeredAt: number };

/** One GET on a kept-alive connection of `agent`: its status, or the socket error it met. */
function get(agent: Agent, port: number, path: string, authorization: string): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, agent, headers: { Authorization: authorization } }, (res) => {
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode, sentAt, answeredAt: Date.now() }));
      res.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, sentAt, answeredAt: Date.now() }));
    });
    req.once("error", (error: NodeJS.ErrnoException) =>
      resolve({
        error: `${error.code ?? error.message}${req.reusedSocket ? " on a kept-alive connection" : ""}`,
        sentAt,
        answeredAt: Date.now(),
      }),
    );
    req.end();
  });
}

describe("the add-on process receiving SIGTERM under load", () => {
  it(`answers every request it accepted (${CLIENTS} clients on kept-alive connections), resets none, refuses new connections only once it has stopped listening, and exits 0`, async () => {
    const requirementId = await insertRequirementRow(site.ctx.deps.db, site.tenant.tenantId, "Dose within 2 % of the set rate");
    const port = await freePort();
    const addon = await site.startProcess("main", { PORT: String(port), JOB_WORKERS: "false" });
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    // A requirement's detail: the database, and Jira's permissions (asked once, then cached).
    const path = `/api/requirement/${requirementId}`;
    expect((await get(agent, port, path, site.auth)).status).toBe(200);

    const outcomes: Outcome[] = [];
    let stopped = false;
    const client = async () => {
      // Each client sends its next request as soon as the last is answered, until connections are refused.
      while (!stopped) {
        const outcome = await get(agent, port, path, site.auth);
        outcomes.push(outcome);
        if (outcome.error?.startsWith("ECONNREFUSED")) return;
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_STOP_MS));
    const signalledAt = Date.now();
    addon.child.kill("SIGTERM");
    const exitCode = await addon.exited;
    const exitedAt = Date.now();
    stopped = true;
    await Promise.all(clients);
    agent.destroy();

    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    const inFlightAtSignal = answered.filter((outcome) => outcome.sentAt <= signalledAt && outcome.answeredAt >= signalledAt);
    const failures = outcomes.filter((outcome) => outcome.error !== undefined && !outcome.error.startsWith("ECONNREFUSED"));
    console.info(
      `${answered.length} requests answered, ${inFlightAtSignal.length} of them in flight at SIGTERM; stopped ${exitedAt - signalledAt} ms after it; ${failures.length} reset`,
    );
    expect(exitCode).toBe(0);
    expect(failures).toEqual([]);
    expect(answered.filter((outcome) => outcome.status !== 200)).toEqual([]);
    expect(inFlightAtSignal.length).toBeGreaterThan(0);
    expect(exitedAt - signalledAt).toBeLessThan(10_000);
  }, 120_000);
});
