import { randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { seedContentUsers } from "../../emulator/seed/users.js";
import { writeMatrixExport } from "../../server/services/matrix/exportMatrix.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { storageKey } from "../../server/storage/objectStorage.js";
import { JIRA_LATENCY_NOTE, PUMP_ID, pumpIssueIds, withEmulatedJiraSite } from "../emulatedJira.js";
import { peakRssAboveIdle, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const ROWS = 50_000;
/** The issue's own goals: 10,000 rows/s and 100 MB above idle. */
const GOAL_ROWS_PER_SECOND = 10_000;
const GOAL_PEAK_MB = 100;

/**
 * Word export of a 50,000-row matrix (each requirement linked to one of 50,000 issues of the
 * emulated Jira, four issue-type columns): the job's whole work, from the database and Jira reads
 * to the .docx on disk. Reports rows/s and peak RSS above the idle RSS, each against its goal.
 */
const wordExport50k: BenchCase = {
  name: "word-export-50k",
  async run(context) {
    return withEmulatedJiraSite(context, ROWS, async ({ db, tenantId, hostClient, dataDir }) => {
      const ids = await pumpIssueIds(hostClient, tenantId);
      const issueTypes = await hostClient.call<{ id: string }[]>(tenantId, "jira", {
        method: "GET",
        path: `/rest/api/3/issuetype/project?projectId=${PUMP_ID}`,
      });

      const [type] = await db("requirement_types")
        .insert({ tenant_id: tenantId, name: "System", prefix: "SYS", level: 3 })
        .returning("requirement_type_id");
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

      // A seeded administrator of the emulated Jira: the export asks Jira which issues its person may browse.
      const exporter = { tenantId, accountId: seedContentUsers[0]?.accountId ?? "" };
      const storage = new LocalDiskStorage({ root: path.join(dataDir, "storage"), baseUrl: "http://127.0.0.1:9", secret: "bench" });
      const key = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
      const peakRss = peakRssAboveIdle();
      const progress: number[] = [];
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      await writeMatrixExport(
        { db, hostClient, storage },
        exporter,
        { projectId: PUMP_ID, selectedIssueTypes: issueTypes.map((t) => String(t.id)), storageKey: key },
        async (completed) => void progress.push(completed),
      );
      const seconds = (performance.now() - started) / 1000;
      // On a loaded machine the wall time says more about the neighbours than about the export; its own CPU time does not.
      const cpu = process.cpuUsage(cpuAtStart);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const peakMb = peakRss.stop();
      const size = (await storage.head(key))?.size ?? 0;
      // The same document without a single Jira read: what the database and the document cost alone.
      const localStarted = performance.now();
      await writeMatrixExport(
        { db, hostClient, storage },
        exporter,
        { projectId: PUMP_ID, selectedIssueTypes: [], storageKey: storageKey(tenantId, "exports", `${randomUUID()}.docx`) },
        async () => {},
      );
      const localRowsPerSecond = ROWS / ((performance.now() - localStarted) / 1000);
      const rowsPerSecond = ROWS / seconds;
      process.stdout.write(
        `  word-export-50k: ${round(seconds, 2)} s, ${Math.round(rowsPerSecond)} rows/s, peak RSS +${round(peakMb, 1)} MB, ${round(size / 1024 / 1024, 1)} MB .docx, ${progress.length} progress updates, ${round(cpuSeconds, 2)} s of CPU in this process; without Jira reads ${Math.round(localRowsPerSecond)} rows/s\n`,
      );
      return [
        // Rates against the issue's goal, higher is better; the memory row against its ceiling, lower is better.
        {
          case: "word-export-50k",
          db: context.db,
          ours: Math.round(rowsPerSecond),
          baseline: GOAL_ROWS_PER_SECOND,
          unit: "rows/s",
          ratio: round(rowsPerSecond / GOAL_ROWS_PER_SECOND),
          note: JIRA_LATENCY_NOTE,
        },
        {
          case: "word-export-50k-without-jira",
          db: context.db,
          ours: Math.round(localRowsPerSecond),
          baseline: GOAL_ROWS_PER_SECOND,
          unit: "rows/s",
          ratio: round(localRowsPerSecond / GOAL_ROWS_PER_SECOND),
        },
        {
          case: "word-export-50k-peak-rss",
          db: context.db,
          ours: round(peakMb, 1),
          baseline: GOAL_PEAK_MB,
          unit: "MB",
          ratio: round(peakMb / GOAL_PEAK_MB),
          note: JIRA_LATENCY_NOTE,
        },
      ] satisfies BenchResult[];
    });
  },
};

export default wordExport50k;
