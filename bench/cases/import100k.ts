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

/** The bare baseline: the same rows straight into `requirements` with COPY, no checks, no revisions. */
async function bareCopy(db: Db, kind: "pglite" | "postgres", csv: string): Promise<void> {
  const sql =
    "COPY requirements (tenant_id, project_id, requirement_type_id, name, display_id, description, status_id, created_by) FROM %s WITH (FORMAT csv)";
  if (kind === "postgres") {
    // Server-side COPY from a file: the local PostgreSQL of the bench reads it (node-postgres has no COPY FROM STDIN of its own).
    const file = path.join(os.tmpdir(), `rmcloud-bench-copy-${process.pid}.csv`);
    fs.writeFileSync(file, csv, { mode: 0o644 });
    try {
      await db.raw(sql.replace("%s", `'${file.replaceAll("'", "''")}'`));
    } finally {
      fs.rmSync(file, { force: true });
    }
    return;
  }
  const connection = (await db.client.acquireConnection()) as {
    query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
  };
  try {
    await connection.query(sql.replace("%s", "'/dev/blob'"), [], { blob: new Blob([csv]) });
  } finally {
    await db.client.releaseConnection(connection);
  }
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
 * is better; the goal is at least 0.5.
 */
const import100k: BenchCase = {
  name: "import-100k",
  async run(context) {
    const rows = fileRows();
    const fileContent = stringify([["Name", "ID", "Description", "Component/s", "Status"], ...rows]);
    const copySeconds: number[] = [];
    const importSeconds: number[] = [];
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
              status === "Done" ? "3" : "1",
              ACCOUNT,
            ]),
          );
          return () => bareCopy(db, kind, copyCsv);
        }),
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
    return [
      { case: "import-100k", db: context.db, ours: round(ours, 0), baseline: round(baseline, 0), unit: "rows/s", ratio: round(ours / baseline) },
    ];
  },
};

export default import100k;
