import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import { loadConfig } from "../../server/config.js";
import type { HostClient } from "../../server/connect/hostClient.js";
import { createDb, type Db, migrateToLatest } from "../../server/db/knex.js";
import { startImport } from "../../server/jobs/importRequirementsJob.js";
import { jobSchemaOf } from "../../server/jobs/queue.js";
import { unreachableAs503 } from "../../server/storage/index.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { type AddonProcess, PROCESS_TOKEN_SECRET, startAddonProcess } from "../helpers/addonProcess.js";
import {
  bearer,
  createTenant,
  createTestApp,
  seedRequirementTypes,
  type TestContext,
  type TestJobOptions,
  type TestTenant,
} from "../helpers/app.js";
import { putImportFile } from "../helpers/csvImport.js";
import type { TestDatabase } from "../helpers/db.js";
import { fakeJira } from "../helpers/fakeJira.js";
import { type StubHost, startStubHost } from "../helpers/stubHost.js";

/**
 * What every fault test stands on, so that each states only its fault: a PostgreSQL database of its
 * own, the add-on in this process (Supertest, `ctx`) on it, an installed site with a signed-in user
 * and the default requirement types, a Jira of one issue over HTTP for the add-on's own processes,
 * and those processes (`startProcess`), sharing the database, the files and the token secret with
 * the add-on here. `setUpFaultSite` sets it up before the file's tests and takes it all down after.
 */
export function setUpFaultSite(options: { jobs?: TestJobOptions } = {}): FaultSite {
  const site = new FaultSite(options);
  beforeAll(() => site.start(), 120_000);
  afterEach(() => site.killProcesses());
  afterAll(() => site.stop());
  return site;
}

/** Jira's answers to some calls held back: what asks them waits mid-way until released. */
export type HeldAnswer = { asked: Promise<void>; release: () => void };

/** A job's status as `GET /api/job/status/:jobId` answers it. */
export type JobStatus = {
  status: string;
  completed_rows?: number;
  total_rows?: number;
  error?: string | null;
  result?: { file_name?: string; total_rows?: number };
};

export class FaultSite {
  database!: FaultDatabase;
  ctx!: TestContext;
  tenant!: TestTenant;
  /** `Authorization` of the site's user, for this process and the add-on's own alike. */
  auth!: string;
  types!: Record<string, number>;
  private dataDir = "";
  private jira: StubHost | undefined;
  private held: { path: string; asked: () => void; released: Promise<void> } | undefined;
  private readonly processes: AddonProcess[] = [];

  constructor(private readonly options: { jobs?: TestJobOptions }) {}

  async start(): Promise<void> {
    this.database = await createFaultDatabase();
    this.dataDir = await mkdtemp(path.join(tmpdir(), "rmcloud-faults-"));
    const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", APP_TOKEN_SECRET: PROCESS_TOKEN_SECRET, DATA_DIR: this.dataDir });
    const fake = fakeJira([{ id: "10001", key: "PUMP-1", summary: "Dose accurately", status: "Done", issueTypeId: "10001" }]);
    const hostClient: HostClient = {
      call: async (tenantId, product, call) => {
        const held = this.held;
        if (held && call.path.startsWith(held.path)) {
          held.asked();
          await held.released;
        }
        return fake.client.call(tenantId, product, call);
      },
    };
    // The files where the add-on's processes keep them (DATA_DIR/storage): what one writes, the others read.
    const storage = unreachableAs503(
      new LocalDiskStorage({ root: path.join(this.dataDir, "storage"), baseUrl: config.baseUrl, secret: PROCESS_TOKEN_SECRET }),
    );
    this.ctx = await createTestApp({ config, hostClient, storage }, { database: this.database, jobs: this.options.jobs });
    this.tenant = await createTenant(this.ctx.deps.db);
    this.auth = await bearer(this.ctx, this.tenant);
    this.types = await seedRequirementTypes(this.ctx.deps.db, this.tenant.tenantId);
    this.jira = await startStubHost(this.ctx.deps.db, this.tenant.tenantId, hostClient);
  }

  async stop(): Promise<void> {
    await this.killProcesses();
    this.held = undefined;
    await this.jira?.close();
    await this.ctx?.destroy();
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  /** The add-on's own entry point (`main` or `worker`) in a process of its own on this site's database and files. */
  async startProcess(entry: "main" | "worker", env: Record<string, string> = {}): Promise<AddonProcess> {
    const started = await startAddonProcess(entry, { DATABASE_URL: this.database.url, DATA_DIR: this.dataDir, ...env });
    this.processes.push(started);
    return started;
  }

  /** SIGKILL: no handler runs, no connection is closed politely, whatever it was doing is simply gone. */
  async kill(started: AddonProcess): Promise<void> {
    if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill("SIGKILL");
    await started.exited;
  }

  async killProcesses(): Promise<void> {
    for (const started of this.processes.splice(0)) await this.kill(started);
  }

  /**
   * Holds Jira's answers to calls whose path starts with `path` until `release`, for the add-on here
   * and its processes alike: `/rest/api/3/issuetype`, a Word export's first read; the permission
   * check, an import's first step.
   */
  holdJira(path: string): HeldAnswer {
    let asked = () => {};
    let release = () => {};
    const answer = {
      asked: new Promise<void>((resolve) => {
        asked = resolve;
      }),
      release: () => {
        this.held = undefined;
        release();
      },
    };
    this.held = { path, asked, released: new Promise<void>((resolve) => (release = resolve)) };
    return answer;
  }

  api() {
    return request(this.ctx.app);
  }

  async statusOf(jobId: string): Promise<JobStatus> {
    return (await this.api().get(`/api/job/status/${jobId}`).set("Authorization", this.auth)).body;
  }

  /** The job's status once it has finished; the test fails if it failed or took longer than `timeoutMs`. */
  async finished(jobId: string, timeoutMs = 60_000): Promise<JobStatus> {
    return vi.waitFor(
      async () => {
        const status = await this.statusOf(jobId);
        expect(status.status).toBe("finished");
        return status;
      },
      { timeout: timeoutMs, interval: 250 },
    );
  }

  /** pg-boss's record of the job: whether a try is running, and how many came before it. */
  async delivery(jobId: string): Promise<{ state: string; retry_count: number } | undefined> {
    return this.ctx.deps.db.withSchema(jobSchemaOf(this.ctx.deps.db)).from("job").where({ id: jobId }).first("state", "retry_count");
  }

  /** A CSV import of `rows` requirements (Name, ID) into `project`, as the dialog starts it; answers its job and file. */
  async startImport(rows: number, project: number): Promise<{ jobId: string; file: string }> {
    const csv = ["Name,ID", ...Array.from({ length: rows }, (_, index) => `Requirement ${index},K-${index}`)].join("\n");
    const file = await putImportFile(this.ctx.deps, this.tenant.tenantId, csv);
    const jobId = await startImport(
      this.ctx.deps,
      { tenantId: this.tenant.tenantId, accountId: "557058:test-user" },
      ImportRequestSchema.parse({ file_name: file, requirement_type: this.types.SYS, location: null, atlassian_project_id: project }),
    );
    return { jobId, file };
  }

  /** The matrix's Word export of `project` with the one issue type, as its dialog starts it; answers its job. */
  async startWordExport(project: number): Promise<string> {
    const started = await this.api()
      .post("/api/requirement/matrix/export")
      .set("Authorization", this.auth)
      .send({ atlassian_project_id: project, type: "docx", selected_issue_types: ["10001"] });
    if (started.status !== 200) throw new Error(`the export answered ${started.status}: ${JSON.stringify(started.body)}`);
    return started.body.job_id;
  }
}

export type FaultDatabase = TestDatabase & {
  /** Its connection string, for the add-on's own processes (DATABASE_URL). */
  url: string;
  /**
   * An outage of this database alone, as a restart looks from the add-on: for `ms` every new
   * connection is refused (ALLOW_CONNECTIONS false) and every open one is cut (pg_terminate_backend,
   * every 50 ms), then connections are allowed again. Resolves with how many connections were cut.
   */
  outage: (ms: number) => Promise<number>;
};

/**
 * A migrated PostgreSQL database of its own (`rmcloud_faults_<pid>_<random>`) on TEST_DATABASE_URL's
 * server, dropped by `destroy`. Its connections are killed and refused by the fault tests; the server
 * itself, which others share, is never stopped.
 */
async function createFaultDatabase(): Promise<FaultDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("The fault tests need TEST_DATABASE_URL");
  const name = `rmcloud_faults_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = createDb({ kind: "postgres", connectionString: serverUrl, poolSize: 2 });
  await admin.raw("CREATE DATABASE ??", [name]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ kind: "postgres", connectionString: url.toString() });
  await migrateToLatest(db);

  const cutEveryConnection = async (admin: Db): Promise<number> => {
    const { rows } = await admin.raw(
      "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()",
      [name],
    );
    return (rows as { cut: boolean }[]).filter((row) => row.cut).length;
  };

  return {
    db,
    kind: "postgres",
    url: url.toString(),
    outage: async (ms) => {
      const until = Date.now() + ms;
      let cut = 0;
      await admin.raw("ALTER DATABASE ?? ALLOW_CONNECTIONS false", [name]);
      try {
        while (Date.now() < until) {
          cut += await cutEveryConnection(admin);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await admin.raw("ALTER DATABASE ?? ALLOW_CONNECTIONS true", [name]);
      }
      return cut;
    },
    destroy: async () => {
      await db.destroy();
      await admin.raw("DROP DATABASE IF EXISTS ?? WITH (FORCE)", [name]);
      await admin.destroy();
    },
  };
}
