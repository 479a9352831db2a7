import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { stringify } from "csv-stringify/sync";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import type { Db } from "../../server/db/knex.js";
import { listRequirementTypes, type RequirementTypeRow } from "../../server/db/requirementTypeStore.js";
import { runImport } from "../../server/services/csv/importRequirements.js";
import { seedDefaultRequirementTypes } from "../../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { createTenant } from "../../test/helpers/app.js";
import { putImportFile } from "../../test/helpers/csvImport.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { median, round } from "../measure.js";
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
function fileRows(): string[][] {
  return Array.from({ length: ROWS }, (_, index) => [
    `Infusion requirement ${index}`,
    `PUMP-${index}`,
    `The pump shall keep rate ${index}, within 5 %.\nChecked at start-up.`,
    COMPONENTS[index % 2]?.name ?? "",
    STATUSES[index % 2]?.name ?? "",
  ]);
}

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
 * Seconds `work` takes on a new, migrated database holding one site and its requirement types:
 * each side of each round starts from empty tables (a table a COPY has already grown costs the
 * next COPY more on PGlite, and a warm cache favours whoever runs second).
 */
async function timedOnNewDatabase(context: BenchContext, work: (site: Site) => Promise<() => Promise<unknown>>): Promise<number> {
  const { db, kind, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
  const storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-import-"));
  try {
    const storage = new LocalDiskStorage({ root: storageRoot, baseUrl: "http://localhost", secret: "bench" });
    const { tenantId } = await createTenant(db);
    await seedDefaultRequirementTypes({ db }, { tenantId, accountId: ACCOUNT });
    const [type] = await listRequirementTypes(db, tenantId);
    if (!type) throw new Error("no requirement type");
    const measured = await work({ db, kind, storage, tenantId, type });
    const start = performance.now();
    await measured();
    return (performance.now() - start) / 1000;
  } finally {
    await destroy();
    fs.rmSync(storageRoot, { recursive: true, force: true });
  }
}

/**
 * Rows per second through the whole import job (stream from storage, check every row, write
 * every requirement, its components and its 'created' revision in one transaction), against a
 * bare COPY of the same rows into the same kind of database in the same run: the median of
 * ROUNDS alternating rounds of each, every one on empty tables. Unit rows/s: here a HIGHER ratio
 * is better; the goal is at least 0.5. `import-100k-stored-rows` sets the same import against a
 * bare COPY of every row it stores (requirements, components, revisions with their snapshots):
 * the job's own cost over the database's cost of keeping what it must keep.
 */
const import100k: BenchCase = {
  name: "import-100k",
  async run(context) {
    const rows = fileRows();
    const fileContent = stringify([["Name", "ID", "Description", "Component/s", "Status"], ...rows]);
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
      importSeconds.push(
        await timedOnNewDatabase(context, async ({ db, storage, tenantId, type }) => {
          const request = ImportRequestSchema.parse({
            file_name: await putImportFile({ db, storage }, tenantId, fileContent),
            requirement_type: type.requirement_type_id,
            location: null,
            atlassian_project_id: 1,
            atlassian_component_json: JSON.stringify(COMPONENTS),
            atlassian_statuses_json: JSON.stringify(STATUSES),
          });
          return async () => {
            const result = await runImport({ db, storage }, { tenantId, accountId: ACCOUNT }, request);
            if (result.imported !== ROWS) throw new Error(`imported ${result.imported} of ${ROWS}: ${JSON.stringify(result.errors.slice(0, 3))}`);
          };
        }),
      );
    }
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
    ];
  },
};

export default import100k;
