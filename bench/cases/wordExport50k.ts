import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";
import { createHostClient } from "../../server/connect/hostClientImpl.js";
import { writeMatrixExport } from "../../server/services/matrix/exportMatrix.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { storageKey } from "../../server/storage/objectStorage.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const ROWS = 50_000;
const PUMP_ID = 10000;
/** The issue's own goals: 10,000 rows/s and 100 MB above idle. */
const GOAL_ROWS_PER_SECOND = 10_000;
const GOAL_PEAK_MB = 100;

type EmulatedJira = { url: string; process: ChildProcess };

/**
 * The emulator in a process of its own, so the RSS measured here is the export's alone: Jira's
 * answers cost the emulator memory, not us.
 */
async function startEmulatedJira(dataDir: string): Promise<EmulatedJira> {
  const code = `import { startEmulator } from ${JSON.stringify(path.resolve("emulator/server.ts"))};
const emulator = await startEmulator({ port: 0, addonUrl: "http://127.0.0.1:9", dataDir: ${JSON.stringify(dataDir)}, seed: { extraIssues: { PUMP: ${ROWS} } }, installOnStart: false, log: () => {} });
console.log("EMULATOR " + emulator.url);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /EMULATOR (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { url, process: child };
}

type SiteRecord = { name: string; baseUrl: string; jira: { clientKey: string; sharedSecret: string } };

/**
 * Word export of a 50,000-row matrix (each requirement linked to one of 50,000 issues of the
 * emulated Jira, four issue-type columns): the job's whole work, from the database and Jira reads
 * to the .docx on disk. Reports rows/s and peak RSS above the idle RSS, each against its goal.
 */
const wordExport50k: BenchCase = {
  name: "word-export-50k",
  async run(context) {
    const { db, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-export-"));
    const jira = await startEmulatedJira(dataDir);
    try {
      const [site] = (await (await fetch(`${jira.url}/_emulator/sites`)).json()) as SiteRecord[];
      if (!site) throw new Error("the emulator has no site");
      const [tenant] = await db("tenants").insert({ site_url: site.baseUrl }).returning("tenant_id");
      const tenantId = String(tenant.tenant_id);
      await db("installations").insert({
        tenant_id: tenantId,
        client_key: site.jira.clientKey,
        product: "jira",
        base_url: site.baseUrl,
        shared_secret: site.jira.sharedSecret,
        // Without the add-on running the emulator cannot read its key, so the app signs as the client key (which Jira accepts too).
        client_info: { key: site.jira.clientKey, clientKey: site.jira.clientKey, baseUrl: site.baseUrl, productType: "jira" },
      });
      const hostClient = createHostClient(db, pino({ level: "silent" }));

      const ids: string[] = [];
      let nextPageToken: string | undefined;
      do {
        const page = await hostClient.call<{ issues: { id: string }[]; nextPageToken?: string }>(tenantId, "jira", {
          method: "POST",
          path: "/rest/api/3/search/jql",
          body: { jql: `project = ${PUMP_ID} ORDER BY id ASC`, fields: ["id"], maxResults: 5000, nextPageToken },
        });
        ids.push(...page.issues.map((issue) => issue.id));
        nextPageToken = page.nextPageToken;
      } while (nextPageToken);
      const issueTypes = await hostClient.call<{ id: string }[]>(tenantId, "jira", {
        method: "GET",
        path: `/rest/api/3/issuetype/project?projectId=${PUMP_ID}`,
      });

      const [type] = await db("requirement_types").insert({ tenant_id: tenantId, name: "System", prefix: "SYS", level: 3 }).returning("requirement_type_id");
      for (let start = 0; start < ROWS; start += 1000) {
        const rows = Array.from({ length: Math.min(1000, ROWS - start) }, (_, i) => ({
          tenant_id: tenantId,
          project_id: PUMP_ID,
          requirement_type_id: type.requirement_type_id,
          name: `Exported requirement ${start + i} with a name of a realistic length`,
          created_by: "bench",
        }));
        const created = await db("requirements").insert(rows).returning("requirement_id");
        await db("requirement_issue_links").insert(
          created.map((row, i) => ({
            tenant_id: tenantId,
            requirement_id: row.requirement_id,
            atlassian_issue_id: ids[(start + i) % ids.length] as string,
          })),
        );
      }
      await db.raw("ANALYZE");

      const storage = new LocalDiskStorage({ root: path.join(dataDir, "storage"), baseUrl: "http://127.0.0.1:9", secret: "bench" });
      const key = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
      global.gc?.();
      const idleRss = process.memoryUsage().rss;
      let peakRss = idleRss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 10);
      const progress: number[] = [];
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      await writeMatrixExport(
        { db, hostClient, storage },
        { tenantId, accountId: "bench" },
        { projectId: PUMP_ID, selectedIssueTypes: issueTypes.map((t) => String(t.id)), storageKey: key },
        async (completed) => void progress.push(completed),
      );
      const seconds = (performance.now() - started) / 1000;
      // On a loaded machine the wall time says more about the neighbours than about the export; its own CPU time does not.
      const cpu = process.cpuUsage(cpuAtStart);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      clearInterval(sampler);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const size = (await storage.head(key))?.size ?? 0;
      // The same document without a single Jira read: what the database and the document cost alone.
      const localStarted = performance.now();
      await writeMatrixExport(
        { db, hostClient, storage },
        { tenantId, accountId: "bench" },
        { projectId: PUMP_ID, selectedIssueTypes: [], storageKey: storageKey(tenantId, "exports", `${randomUUID()}.docx`) },
        async () => {},
      );
      const localRowsPerSecond = ROWS / ((performance.now() - localStarted) / 1000);
      const rowsPerSecond = ROWS / seconds;
      const peakMb = (peakRss - idleRss) / (1024 * 1024);
      process.stdout.write(
        `  word-export-50k: ${round(seconds, 2)} s, ${Math.round(rowsPerSecond)} rows/s, peak RSS +${round(peakMb, 1)} MB, ${round(size / 1024 / 1024, 1)} MB .docx, ${progress.length} progress updates, ${round(cpuSeconds, 2)} s of CPU in this process; without Jira reads ${Math.round(localRowsPerSecond)} rows/s\n`,
      );
      return [
        // Rates against the issue's goal, higher is better; the memory row against its ceiling, lower is better.
        { case: "word-export-50k", db: context.db, ours: Math.round(rowsPerSecond), baseline: GOAL_ROWS_PER_SECOND, unit: "rows/s", ratio: round(rowsPerSecond / GOAL_ROWS_PER_SECOND) },
        { case: "word-export-50k-without-jira", db: context.db, ours: Math.round(localRowsPerSecond), baseline: GOAL_ROWS_PER_SECOND, unit: "rows/s", ratio: round(localRowsPerSecond / GOAL_ROWS_PER_SECOND) },
        { case: "word-export-50k-peak-rss", db: context.db, ours: round(peakMb, 1), baseline: GOAL_PEAK_MB, unit: "MB", ratio: round(peakMb / GOAL_PEAK_MB) },
      ] satisfies BenchResult[];
    } finally {
      jira.process.kill();
      await destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default wordExport50k;
