import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { seedContentUsers } from "../../emulator/seed/users.js";
import type { Db } from "../../server/db/knex.js";
import { EXPORT_CSV_OPTIONS, exportRequirementRows } from "../../server/services/csv/exportRequirements.js";
import { createAccessCache } from "../../server/services/access/projectAccess.js";
import { JIRA_LATENCY_NOTE, PUMP_ID, pumpIssueIds, withEmulatedJiraSite } from "../emulatedJira.js";
import { median, peakRssAboveIdle, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";
import pino from "pino";
import type { HostClient } from "../../server/connect/hostClient.js";

const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 100_000);
/** Another project of the same site, so a plan that reads the whole site rather than the project shows. */
const OTHER_PROJECT_ROWS = ROWS / 5;
const OTHER_PROJECT_ID = 10001;
const ROUNDS = 3;

/**
 * The exported project: ROWS requirements with a custom ID, a two-line description, a status, an
 * assignee, a component, a linked issue of Jira (one issue per requirement), a custom field
 * value and a folder of ten; every tenth links the next requirement. Written by the database
 * itself (generate_series) so seeding takes seconds.
 */
async function seedProject(
  db: Db,
  tenantId: string,
  jira: { issueIds: string[]; componentIds: string[]; statusIds: string[]; accountIds: string[] },
): Promise<void> {
  const [type] = await db("requirement_types")
    .insert({ tenant_id: tenantId, name: "System", prefix: "SYS", level: 3 })
    .returning("requirement_type_id");
  const [field] = await db("attributes")
    .insert({ tenant_id: tenantId, project_id: PUMP_ID, name: "Verification", type: "string" })
    .returning("attribute_id");
  const folders = await db("folders")
    .insert(
      Array.from({ length: 10 }, (_, index) => ({
        tenant_id: tenantId,
        project_id: PUMP_ID,
        name: `Subsystem ${index}`,
        created_by: "bench",
      })),
    )
    .returning("folder_id");
  const seeded = (projectId: number, rows: number) =>
    db.raw(
      `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, display_id, name, description, status_id, assigned_to, parent_folder_id, created_by)
       SELECT ?, ?, ?, 'PUMP-' || g, 'Infusion requirement ' || g || ' with a name of a realistic length',
         'The pump shall keep rate ' || g || ', within 5 %.' || chr(10) || 'Checked at start-up.',
         (?::text[])[1 + g % ?], (?::text[])[1 + g % ?], (?::bigint[])[1 + g % ?], 'bench'
       FROM generate_series(1, ?) g`,
      [
        tenantId,
        projectId,
        type.requirement_type_id,
        jira.statusIds,
        jira.statusIds.length,
        jira.accountIds,
        jira.accountIds.length,
        folders.map((f) => f.folder_id),
        folders.length,
        rows,
      ],
    );
  await seeded(PUMP_ID, ROWS);
  await seeded(OTHER_PROJECT_ID, OTHER_PROJECT_ROWS);
  await db.raw(
    `INSERT INTO requirement_components (tenant_id, requirement_id, atlassian_component_id)
     SELECT tenant_id, requirement_id, (?::text[])[1 + requirement_id % ?] FROM requirements WHERE tenant_id = ? AND project_id = ?`,
    [jira.componentIds, jira.componentIds.length, tenantId, PUMP_ID],
  );
  await db.raw(
    `INSERT INTO requirement_issue_links (tenant_id, requirement_id, atlassian_issue_id)
     SELECT tenant_id, requirement_id, (?::text[])[1 + requirement_id % ?] FROM requirements WHERE tenant_id = ? AND project_id = ?`,
    [jira.issueIds, jira.issueIds.length, tenantId, PUMP_ID],
  );
  await db.raw(
    `INSERT INTO requirement_attribute_values (tenant_id, requirement_id, attribute_id, value)
     SELECT tenant_id, requirement_id, ?, 'Test TC-' || requirement_id FROM requirements WHERE tenant_id = ? AND project_id = ?`,
    [field.attribute_id, tenantId, PUMP_ID],
  );
  await db.raw(
    `INSERT INTO requirement_links (tenant_id, requirement_id, linked_requirement_id)
     SELECT r.tenant_id, r.requirement_id, n.requirement_id FROM requirements r
     JOIN requirements n ON n.tenant_id = r.tenant_id AND n.requirement_id = r.requirement_id + 1 AND n.project_id = r.project_id
     WHERE r.tenant_id = ? AND r.project_id = ? AND r.requirement_id % 10 = 0`,
    [tenantId, PUMP_ID],
  );
  await db.raw("ANALYZE");
}

/**
 * A bare COPY of the exported rows out of the same database: the project's active requirements
 * by id, their own columns only. PostgreSQL writes a server-side file (node-postgres has no COPY
 * TO STDOUT of its own); PGlite a blob.
 */
async function bareCopyOut(db: Db, kind: "pglite" | "postgres", tenantId: string): Promise<void> {
  const select = `SELECT requirement_id, display_id, name, description, status_id, assigned_to, parent_folder_id
    FROM requirements WHERE tenant_id = '${tenantId}' AND project_id = ${PUMP_ID} AND deleted_at IS NULL ORDER BY requirement_id`;
  if (kind === "postgres") {
    const file = path.join(os.tmpdir(), `rmcloud-bench-copy-out-${process.pid}.csv`);
    try {
      await db.raw(`COPY (${select}) TO '${file}' WITH (FORMAT csv)`);
    } finally {
      fs.rmSync(file, { force: true });
    }
    return;
  }
  await db.raw(`COPY (${select}) TO '/dev/blob' WITH (FORMAT csv)`);
}

/** Bytes written, nothing kept: the download's receiving end. */
function discard(): { sink: Writable; bytes: () => number } {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  return { sink, bytes: () => bytes };
}

/**
 * The CSV export of a 100,000-requirement project (GET /api/requirement/export's rows, written as
 * the route writes them), with its names read from the emulated Jira, against a bare COPY of the
 * same requirements out of the same database: rows/s (higher is better), the median of three
 * rounds; and the same export without Jira (ids in the cells). The peak RSS above idle is
 * printed, not compared: it follows when V8 chooses to collect, not what the export keeps (with
 * old space capped at 48 MB the same export ran at +48 MB).
 */
const csvExport100k: BenchCase = {
  name: "csv-export-100k",
  async run(context) {
    return withEmulatedJiraSite(context, ROWS, async ({ db, kind, tenantId, hostClient }) => {
      const read = <T>(pathName: string) => hostClient.call<T>(tenantId, "jira", { method: "GET", path: pathName });
      const components = await read<{ id: string }[]>(`/rest/api/3/project/${PUMP_ID}/components`);
      const statuses = await read<{ statuses: { id: string }[] }[]>(`/rest/api/3/project/${PUMP_ID}/statuses`);
      const users = await read<{ accountId: string }[]>(`/rest/api/3/user/assignable/search?project=${PUMP_ID}&maxResults=1000`);
      await seedProject(db, tenantId, {
        issueIds: await pumpIssueIds(hostClient, tenantId),
        componentIds: components.map((component) => component.id),
        statusIds: [...new Set(statuses.flatMap((type) => type.statuses.map((status) => status.id)))],
        accountIds: users.map((user) => user.accountId),
      });
      // A seeded administrator of the emulated Jira: the export asks Jira which issues its person may browse.
      const actor = { tenantId, accountId: seedContentUsers[0]?.accountId ?? "" };
      // Without Jira: every call answers nothing, so no issue is shown and ids stay in the cells.
      const withoutJira: HostClient = { call: async <T>() => ({}) as T };
      const logger = pino({ level: "silent" });
      const access = createAccessCache();
      const exportOnce = async (withJira: boolean) => {
        const { sink, bytes } = discard();
        const rows = exportRequirementRows({ db, hostClient: withJira ? hostClient : withoutJira, logger, access }, actor, PUMP_ID);
        await pipeline(Readable.from(rows), stringify(EXPORT_CSV_OPTIONS), sink);
        return bytes();
      };
      const timed = async (work: () => Promise<unknown>) => {
        const start = performance.now();
        await work();
        return (performance.now() - start) / 1000;
      };

      const peakRss = peakRssAboveIdle();
      const cpuAtStart = process.cpuUsage();
      let size = 0;
      const exportSeconds = [await timed(async () => (size = await exportOnce(true)))];
      const cpu = process.cpuUsage(cpuAtStart);
      const peakMb = peakRss.stop();
      const copySeconds: number[] = [];
      const localSeconds: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        copySeconds.push(await timed(() => bareCopyOut(db, kind, tenantId)));
        localSeconds.push(await timed(() => exportOnce(false)));
        if (round < ROUNDS) exportSeconds.push(await timed(() => exportOnce(true)));
      }
      const ours = ROWS / median(exportSeconds);
      const local = ROWS / median(localSeconds);
      const baseline = ROWS / median(copySeconds);
      process.stdout.write(
        `  csv-export-100k: ${Math.round(ours)} rows/s with Jira, ${Math.round(local)} without, bare COPY ${Math.round(baseline)}; ${round(size / 1024 / 1024, 1)} MB of CSV, peak RSS +${round(peakMb, 1)} MB, ${round((cpu.user + cpu.system) / 1e6, 2)} s of CPU in this process for the first export\n`,
      );
      return [
        {
          case: "csv-export-100k",
          db: context.db,
          ours: round(ours, 0),
          baseline: round(baseline, 0),
          unit: "rows/s",
          ratio: round(ours / baseline),
          note: JIRA_LATENCY_NOTE,
        },
        {
          case: "csv-export-100k-without-jira",
          db: context.db,
          ours: round(local, 0),
          baseline: round(baseline, 0),
          unit: "rows/s",
          ratio: round(local / baseline),
        },
      ] satisfies BenchResult[];
    });
  },
};

export default csvExport100k;
