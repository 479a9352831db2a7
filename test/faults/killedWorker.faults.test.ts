import { describe, expect, it, vi } from "vitest";
import { storageKey } from "../../server/storage/objectStorage.js";
import { postRequirement } from "../helpers/app.js";
import type { AddonProcess } from "../helpers/addonProcess.js";
import { setUpFaultSite } from "./fixture.js";

/** JOB_HEARTBEAT_SECONDS of the worker processes: a try left unmarked this long counts as dead. */
const HEARTBEAT_SECONDS = 6;
/**
 * From a worker's death to another worker running its try again: the heartbeat, one maintenance
 * interval (half of it), the job's retry delay (5 s, doubled with jitter: at most 10 s) and a poll
 * (2 s), with room for a loaded machine. Without the heartbeat the try waited for its job's expiry:
 * an import's hour, a Word export's half hour.
 */
const RETRIED_WITHIN_MS = 30_000;
const IMPORTED_ROWS = 20_000;
const PROJECT = 10000;

const site = setUpFaultSite();

const startWorker = () => site.startProcess("worker", { JOB_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS), DATABASE_POOL_SIZE: "4" });

/**
 * Kills the worker running the job (`meanwhile` runs right after) and times how long until another
 * worker runs it again (pg-boss counting one try before it), which must be within RETRIED_WITHIN_MS.
 */
async function killAndTimeTheHandover(jobId: string, dying: AddonProcess, meanwhile: () => void = () => {}): Promise<void> {
  await site.kill(dying);
  const killedAt = Date.now();
  meanwhile();
  expect((await site.statusOf(jobId)).status).toBe("started");
  // Taken by another worker: running, or already done when its try is short (a one-row export) and
  // ended between two looks.
  await vi.waitFor(
    async () => {
      const delivery = await site.delivery(jobId);
      expect(delivery?.retry_count).toBe(1);
      expect(["active", "completed"]).toContain(delivery?.state);
    },
    { timeout: RETRIED_WITHIN_MS * 2, interval: 100 },
  );
  const retriedMs = Date.now() - killedAt;
  console.info(`tried again ${retriedMs} ms after its worker was killed (heartbeat ${HEARTBEAT_SECONDS} s)`);
  expect(retriedMs).toBeLessThan(RETRIED_WITHIN_MS);
}

/** Locks a requirement type's row (FOR UPDATE) until the answered release: an import of that type waits for it before reading its file. */
async function lockRequirementType(requirementTypeId: number): Promise<() => Promise<void>> {
  let locked = () => {};
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const lockedNow = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holding = site.ctx.deps.db.transaction(async (trx) => {
    await trx("requirement_types").where({ requirement_type_id: requirementTypeId }).forUpdate().first("requirement_type_id");
    locked();
    await released;
  });
  await lockedNow;
  return async () => {
    release();
    await holding;
  };
}

describe("a worker process killed with SIGKILL", () => {
  it(`mid-import: another worker runs the import again within ${RETRIED_WITHIN_MS / 1000} s and it finishes once, every row once`, async () => {
    const { jobId, file } = await site.startImport(IMPORTED_ROWS, 30000);
    // The import waits at its first lock, on its requirement type, until the other worker is up:
    // what is timed is the handing over, not a process starting.
    const releaseType = await lockRequirementType(site.types.SYS as number);
    const dying = await startWorker();
    await vi.waitFor(async () => expect(await site.delivery(jobId)).toMatchObject({ state: "active" }), { timeout: 30_000, interval: 100 });
    await startWorker();
    await releaseType();
    await vi.waitFor(async () => expect((await site.statusOf(jobId)).completed_rows).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    await killAndTimeTheHandover(jobId, dying);
    expect(await site.finished(jobId, 90_000)).toMatchObject({ completed_rows: IMPORTED_ROWS });
    const rows = site.ctx.deps.db("requirements").where({ tenant_id: site.tenant.tenantId, project_id: 30000 });
    expect(Number((await rows.clone().count("* as n"))[0]?.n)).toBe(IMPORTED_ROWS);
    expect(Number((await rows.clone().countDistinct("display_id as n"))[0]?.n)).toBe(IMPORTED_ROWS);
    expect(await site.ctx.deps.db("csv_imports").where({ uuid_file_name: file })).toHaveLength(1);
    await vi.waitFor(async () => expect(await site.delivery(jobId)).toEqual({ state: "completed", retry_count: 1 }));
  }, 180_000);

  it(`mid-export: a try alive past ${HEARTBEAT_SECONDS} s stays its worker's; once the worker is killed, another writes the Word file within ${RETRIED_WITHIN_MS / 1000} s and the export finishes once`, async () => {
    await postRequirement(site.ctx, site.auth, "Alarm within 1 s of an occlusion", site.types.SYS, PROJECT);
    const issueTypes = site.holdJira("/rest/api/3/issuetype");
    const dying = await startWorker();
    const jobId = await site.startWordExport(PROJECT);
    await issueTypes.asked;
    await startWorker();
    // Held by Jira for twice the heartbeat, the living worker's try is neither expired nor run twice.
    await new Promise((resolve) => setTimeout(resolve, 2 * HEARTBEAT_SECONDS * 1000));
    expect(await site.delivery(jobId)).toEqual({ state: "active", retry_count: 0 });

    await killAndTimeTheHandover(jobId, dying, issueTypes.release);
    const status = await site.finished(jobId);
    expect(status.result).toMatchObject({ total_rows: 1 });
    expect(
      (await site.ctx.deps.storage.head(storageKey(site.tenant.tenantId, "exports", String(status.result?.file_name))))?.size,
    ).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await site.delivery(jobId)).toEqual({ state: "completed", retry_count: 1 }));
  }, 180_000);
});
