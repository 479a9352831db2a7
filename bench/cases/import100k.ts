import { performance } from "node:perf_hooks";
import { stringify } from "csv-stringify/sync";
import type { Db } from "../../server/db/knex.js";
import type { RequirementTypeRow } from "../../server/db/requirementTypeStore.js";
import {
  ACCOUNT,
  type Copy,
  componentIdOf,
  csvOf,
  fileRows,
  importJob,
  onNewDatabase,
  requirementsCopy,
  type Site,
  stagedCopy,
  statusIdOf,
} from "../importFixture.js";
import { median, retainedHeapAboveStart, round } from "../measure.js";
import type { BenchCase, BenchContext } from "../types.js";

const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);

/**
 * Every row the import stores for the file, as COPY input: the requirements (ids drawn from their
 * sequence beforehand), their components, and their 'created' revisions with the snapshot the
 * import freezes, in its stored form (db/requirements/revisions.ts's StoredSnapshot). The second baseline: what
 * storing the import's rows costs the database alone.
 */
async function storedRows(db: Db, tenantId: string, type: RequirementTypeRow, rows: string[][]): Promise<Copy[]> {
  const { rows: drawn } = await db.raw(
    "SELECT nextval(pg_get_serial_sequence('requirements', 'requirement_id'))::int AS id FROM generate_series(1, ?::int)",
    [rows.length],
  );
  const ids = drawn.map((row: { id: number }) => row.id);
  const typeId = type.requirement_type_id;
  const requirementType = { requirement_type_id: typeId, name: type.name, prefix: type.prefix, level: type.level };
  return [
    requirementsCopy(rows, tenantId, type, ids),
    {
      into: "requirement_components (tenant_id, requirement_id, atlassian_component_id)",
      csv: stringify(rows.map(([, , , component], index) => [tenantId, ids[index], componentIdOf(component)])),
    },
    {
      into: "requirement_revisions (tenant_id, requirement_id, revision, account_id, action, changed_fields, snapshot)",
      csv: stringify(
        rows.map(([name, id, description, component, status], index) => [
          tenantId,
          ids[index],
          1,
          ACCOUNT,
          "created",
          "{name,requirement_type_id,display_id,description,status,components}",
          JSON.stringify({
            name,
            status: { atlassian_status_id: statusIdOf(status) },
            project: 1,
            attributes: {},
            components: [{ atlassian_component_id: componentIdOf(component) }],
            display_id: id,
            assigned_to: null,
            description,
            parent_folder_id: null,
            requirement_type: requirementType,
          }),
        ]),
      ),
    },
  ];
}

/** Rounds of the baseline and the import, alternating: one run of each swings by a third on a shared machine. */
const ROUNDS = Number(process.env.IMPORT_BENCH_ROUNDS ?? 3);

/** Seconds the function `work` answers takes, on a new database (onNewDatabase). */
function timedOnNewDatabase(context: BenchContext, work: (site: Site) => Promise<() => Promise<unknown>>): Promise<number> {
  return onNewDatabase(context, async (site) => {
    const measured = await work(site);
    const start = performance.now();
    await measured();
    return (performance.now() - start) / 1000;
  });
}

/**
 * The most JS heap the import keeps alive while importing `rowCount` rows, sampled after each
 * batch it writes, in MB. The file is built and stored before the start, so only the job counts.
 */
function retainedHeapOfImport(context: BenchContext, rowCount: number, options: { customIds: boolean }): Promise<number> {
  return onNewDatabase(context, async (site) => {
    let heap: ReturnType<typeof retainedHeapAboveStart> | undefined;
    const run = await importJob(site, csvOf(fileRows(rowCount, options)), rowCount, { progress: () => heap?.sample() });
    heap = retainedHeapAboveStart();
    await run();
    return heap.stop();
  });
}

/**
 * Rows per second through the whole import job (stream from storage, check every row, write
 * every requirement, its components and its 'created' revision in one transaction), against a
 * bare COPY of the same rows into the same kind of database in the same run: the median of
 * ROUNDS alternating rounds of each, every one on empty tables. Unit rows/s: here a HIGHER ratio
 * is better. `import-100k-stored-rows` is the goal (at least 0.85): the same import against a
 * COPY of every row it stores (requirements, components, revisions with their snapshots) into the
 * same tables with the same constraints and indexes, foreign keys included on both sides (migration
 * 0018): the job's own cost over the database's cost of keeping what it must keep. `import-100k`,
 * against a bare COPY of the requirement rows alone, is printed for reference.
 * `import-100k-retained-heap` is the most JS heap the job keeps alive importing the file against
 * importing its first tenth (MB; 1 means flat in the file's size, lower is better), for a file
 * without custom IDs; `-custom-ids` for the file as timed, whose IDs the writing pass leaves to
 * the project's unique index instead of keeping them.
 */
const import100k: BenchCase = {
  name: "import-100k",
  async run(context) {
    const rows = fileRows(ROWS);
    const fileContent = csvOf(rows);
    const copySeconds: number[] = [];
    const importSeconds: number[] = [];
    const storedRowsSeconds: number[] = [];
    for (let pass = 1; pass <= ROUNDS; pass++) {
      copySeconds.push(
        await timedOnNewDatabase(context, async ({ db, kind, tenantId, type }) =>
          stagedCopy(db, kind, [requirementsCopy(rows, tenantId, type)]),
        ),
      );
      storedRowsSeconds.push(
        await timedOnNewDatabase(context, async ({ db, kind, tenantId, type }) =>
          stagedCopy(db, kind, await storedRows(db, tenantId, type, rows)),
        ),
      );
      importSeconds.push(await timedOnNewDatabase(context, (site) => importJob(site, fileContent, ROWS)));
    }
    const heapOf = (rowCount: number, customIds: boolean) => retainedHeapOfImport(context, rowCount, { customIds });
    const tenth = Math.ceil(ROWS / 10);
    const heap = { file: await heapOf(ROWS, false), tenth: await heapOf(tenth, false) };
    const heapWithIds = { file: await heapOf(ROWS, true), tenth: await heapOf(tenth, true) };
    const ours = ROWS / median(importSeconds);
    const baseline = ROWS / median(copySeconds);
    const storedRowsBaseline = ROWS / median(storedRowsSeconds);
    return [
      {
        case: "import-100k",
        db: context.db,
        ours: round(ours, 0),
        baseline: round(baseline, 0),
        unit: "rows/s",
        ratio: round(ours / baseline),
      },
      {
        case: "import-100k-stored-rows",
        db: context.db,
        ours: round(ours, 0),
        baseline: round(storedRowsBaseline, 0),
        unit: "rows/s",
        ratio: round(ours / storedRowsBaseline),
      },
      {
        case: "import-100k-retained-heap",
        db: context.db,
        ours: round(heap.file, 1),
        baseline: round(heap.tenth, 1),
        unit: "MB",
        ratio: round(heap.file / heap.tenth),
      },
      {
        case: "import-100k-retained-heap-custom-ids",
        db: context.db,
        ours: round(heapWithIds.file, 1),
        baseline: round(heapWithIds.tenth, 1),
        unit: "MB",
        ratio: round(heapWithIds.file / heapWithIds.tenth),
      },
    ];
  },
};

export default import100k;
