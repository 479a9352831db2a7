import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { stringify } from "csv-stringify/sync";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import type { Db } from "../../server/db/knex.js";
import { listRequirementTypes, type RequirementTypeRow } from "../../server/db/requirementTypeStore.js";
import { type ImportHooks, runImport } from "../../server/services/csv/importRequirements.js";
import { seedDefaultRequirementTypes } from "../../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { createTenant } from "../../test/helpers/app.js";
import { putImportFile } from "../../test/helpers/csvImport.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { median, retainedHeapAboveStart, round } from "../measure.js";
import type { BenchCase, BenchContext } from "../types.js";

const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);
const ACCOUNT = "557058:bench";
const COMPONENTS = [
  { id: "10100", name: "Dosing" },
  { id: "10101", name: "Alarms" },
];
const STATUSES = [
  { id: "1", name: "To Do" },
  { id: "3", name: "Done" },
];

/** Rows shaped like a real export: a custom ID, a name, a description with commas and a line break, a component, a status. */
function fileRows(count = ROWS, { customIds = true } = {}): string[][] {
  return Array.from({ length: count }, (_, index) => [
    `Infusion requirement ${index}`,
    customIds ? `PUMP-${index}` : "",
    `The pump shall keep rate ${index}, within 5 %.\nChecked at start-up.`,
    COMPONENTS[index % 2]?.name ?? "",
    STATUSES[index % 2]?.name ?? "",
  ]);
}

const csvOf = (rows: string[][]) => stringify([["Name", "ID", "Description", "Component/s", "Status"], ...rows]);

const REQUIREMENT_COLUMNS = "tenant_id, project_id, requirement_type_id, name, display_id, description, status_id, created_by";
const statusIdOf = (name: string | undefined) => STATUSES.find((status) => status.name === name)?.id ?? null;
const componentIdOf = (name: string | undefined) => COMPONENTS.find((component) => component.name === name)?.id ?? "";

type Copy = { into: string; csv: string };

/**
 * Every row the import stores for the file, as COPY input: the requirements (ids drawn from their
 * sequence beforehand), their components, and their 'created' revisions with the snapshot the
 * import freezes. The second baseline: what storing the import's rows costs the database alone.
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
    {
      into: `requirements (requirement_id, ${REQUIREMENT_COLUMNS})`,
      csv: stringify(
        rows.map(([name, id, description, , status], index) => [ids[index], tenantId, 1, typeId, name, id, description, statusIdOf(status), ACCOUNT]),
      ),
    },
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
            requirement_id: ids[index],
            prefix: type.prefix,
            display_id: id,
            name,
            description,
            assigned_to: null,
            components: [{ atlassian_component_id: componentIdOf(component) }],
            issues: [],
            status: { atlassian_status_id: statusIdOf(status) },
            contents: [],
            requirement_type_id: typeId,
            requirement_type: requirementType,
            linked_requirements: [],
            attachments: [],
            attributes: {},
            parent_folder_id: null,
            project: 1,
            deleted: false,
          }),
        ]),
      ),
    },
  ];
}

/**
 * A bare baseline: CSV text COPYed into tables in one transaction, no checks. The copies are
 * staged before the answered function runs (PostgreSQL reads server-side files, node-postgres
 * having no COPY FROM STDIN of its own; PGlite reads a blob), so only the database's work is timed.
 */
function stagedCopy(db: Db, kind: "pglite" | "postgres", copies: Copy[]): () => Promise<void> {
  if (kind === "postgres") {
    const staged = copies.map(({ into, csv }, index) => {
      const file = path.join(os.tmpdir(), `rmcloud-bench-copy-${process.pid}-${index}.csv`);
      fs.writeFileSync(file, csv, { mode: 0o644 });
      return { into, file };
    });
    return async () => {
      try {
        await db.transaction(async (trx) => {
          for (const { into, file } of staged) await trx.raw(`COPY ${into} FROM '${file.replaceAll("'", "''")}' WITH (FORMAT csv)`);
        });
      } finally {
        for (const { file } of staged) fs.rmSync(file, { force: true });
      }
    };
  }
  const blobs = copies.map(({ into, csv }) => ({ into, blob: new Blob([csv]) }));
  return async () => {
    const connection = (await db.client.acquireConnection()) as {
      query(sql: string, params?: unknown[], options?: { blob: Blob }): Promise<unknown>;
    };
    try {
      await connection.query("BEGIN");
      for (const { into, blob } of blobs) await connection.query(`COPY ${into} FROM '/dev/blob' WITH (FORMAT csv)`, [], { blob });
      await connection.query("COMMIT");
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}

/** Rounds of the baseline and the import, alternating: one run of each swings by a third on a shared machine. */
const ROUNDS = Number(process.env.IMPORT_BENCH_ROUNDS ?? 3);

type Site = { db: Db; kind: "pglite" | "postgres"; storage: LocalDiskStorage; tenantId: string; type: RequirementTypeRow };

/**
 * `use` on a new, migrated database holding one site and its requirement types: each side of
 * each round starts from empty tables (a table a COPY has already grown costs the next COPY more
 * on PGlite, and a warm cache favours whoever runs second).
 */
async function onNewDatabase<T>(context: BenchContext, use: (site: Site) => Promise<T>): Promise<T> {
  const { db, kind, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
  const storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-import-"));
  try {
    const storage = new LocalDiskStorage({ root: storageRoot, baseUrl: "http://localhost", secret: "bench" });
    const { tenantId } = await createTenant(db);
    await seedDefaultRequirementTypes({ db }, { tenantId, accountId: ACCOUNT });
    const [type] = await listRequirementTypes(db, tenantId);
    if (!type) throw new Error("no requirement type");
    return await use({ db, kind, storage, tenantId, type });
  } finally {
    await destroy();
    fs.rmSync(storageRoot, { recursive: true, force: true });
  }
}

/** Seconds the function `work` answers takes, on a new database (onNewDatabase). */
function timedOnNewDatabase(context: BenchContext, work: (site: Site) => Promise<() => Promise<unknown>>): Promise<number> {
  return onNewDatabase(context, async (site) => {
    const measured = await work(site);
    const start = performance.now();
    await measured();
    return (performance.now() - start) / 1000;
  });
}

/** The import job of `fileContent`, stored and requested as the dialog does, ready to run; it must import every row. */
async function importJob(
  { db, storage, tenantId, type }: Site,
  fileContent: string,
  rowCount: number,
  hooks: ImportHooks = {},
): Promise<() => Promise<void>> {
  const request = ImportRequestSchema.parse({
    file_name: await putImportFile({ db, storage }, tenantId, fileContent),
    requirement_type: type.requirement_type_id,
    location: null,
    atlassian_project_id: 1,
    atlassian_component_json: JSON.stringify(COMPONENTS),
    atlassian_statuses_json: JSON.stringify(STATUSES),
  });
  return async () => {
    const result = await runImport({ db, storage }, { tenantId, accountId: ACCOUNT }, request, hooks);
    if (result.imported !== rowCount) throw new Error(`imported ${result.imported} of ${rowCount}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  };
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
 * is better; the goal is at least 0.5. `import-100k-stored-rows` sets the same import against a
 * bare COPY of every row it stores (requirements, components, revisions with their snapshots):
 * the job's own cost over the database's cost of keeping what it must keep.
 * `import-100k-retained-heap` is the most JS heap the job keeps alive importing the file against
 * importing its first tenth (MB; 1 means flat in the file's size, lower is better), for a file
 * without custom IDs; `-custom-ids` for the file as timed, whose IDs the writing pass leaves to
 * the project's unique index instead of keeping them.
 */
const import100k: BenchCase = {
  name: "import-100k",
  async run(context) {
    const rows = fileRows();
    const fileContent = csvOf(rows);
    const copySeconds: number[] = [];
    const importSeconds: number[] = [];
    const storedRowsSeconds: number[] = [];
    for (let pass = 1; pass <= ROUNDS; pass++) {
      copySeconds.push(
        await timedOnNewDatabase(context, async ({ db, kind, tenantId, type }) => {
          const copyCsv = stringify(
            rows.map(([name, id, description, , status]) => [
              tenantId,
              1,
              type.requirement_type_id,
              name,
              id,
              description,
              statusIdOf(status),
              ACCOUNT,
            ]),
          );
          return stagedCopy(db, kind, [{ into: `requirements (${REQUIREMENT_COLUMNS})`, csv: copyCsv }]);
        }),
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
      { case: "import-100k", db: context.db, ours: round(ours, 0), baseline: round(baseline, 0), unit: "rows/s", ratio: round(ours / baseline) },
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
