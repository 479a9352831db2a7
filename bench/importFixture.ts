import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import pino from "pino";
import { ImportRequestSchema } from "../common/schemas/csvImport.js";
import type { Db } from "../server/db/knex.js";
import { listRequirementTypes, type RequirementTypeRow } from "../server/db/requirementTypeStore.js";
import { type ImportHooks, runImport } from "../server/services/csv/importRequirements.js";
import { seedDefaultRequirementTypes } from "../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { JobQueue } from "../server/jobs/queue.js";
import { LocalDiskStorage } from "../server/storage/localDisk.js";
import { createTenant } from "../test/helpers/app.js";
import { putImportFile } from "../test/helpers/csvImport.js";
import { createTestDatabase } from "../test/helpers/db.js";
import type { BenchContext } from "./types.js";

/*
 * What the import benchmarks share (bench/cases/import100k.ts timed, bench/instructions.ts counted):
 * the file, a new site to import it into, and the two sides they compare, the import job and a
 * bare COPY of the file's rows into `requirements`.
 */

export const ACCOUNT = "557058:bench";
export const COMPONENTS = [
  { id: "10100", name: "Dosing" },
  { id: "10101", name: "Alarms" },
];
export const STATUSES = [
  { id: "1", name: "To Do" },
  { id: "3", name: "Done" },
];

/** Rows shaped like a real export: a custom ID, a name, a description with commas and a line break, a component, a status. */
export function fileRows(count: number, { customIds = true } = {}): string[][] {
  return Array.from({ length: count }, (_, index) => [
    `Infusion requirement ${index}`,
    customIds ? `PUMP-${index}` : "",
    `The pump shall keep rate ${index}, within 5 %.\nChecked at start-up.`,
    COMPONENTS[index % 2]?.name ?? "",
    STATUSES[index % 2]?.name ?? "",
  ]);
}

export const csvOf = (rows: string[][]) => stringify([["Name", "ID", "Description", "Component/s", "Status"], ...rows]);

const REQUIREMENT_COLUMNS = "tenant_id, project_id, requirement_type_id, name, display_id, description, status_id, created_by";
export const statusIdOf = (name: string | undefined) => STATUSES.find((status) => status.name === name)?.id ?? null;
export const componentIdOf = (name: string | undefined) => COMPONENTS.find((component) => component.name === name)?.id ?? "";

export type Copy = { into: string; csv: string };

/**
 * The file's rows as COPY input for `requirements`: the bare baseline's side. With `ids` (drawn from
 * the sequence beforehand) each row gets its id, for copies of rows that refer to them.
 */
export function requirementsCopy(rows: string[][], tenantId: string, type: RequirementTypeRow, ids?: number[]): Copy {
  return {
    into: `requirements (${ids ? "requirement_id, " : ""}${REQUIREMENT_COLUMNS})`,
    csv: stringify(
      rows.map(([name, id, description, , status], index) => [
        ...(ids ? [ids[index]] : []),
        tenantId,
        1,
        type.requirement_type_id,
        name,
        id,
        description,
        statusIdOf(status),
        ACCOUNT,
      ]),
    ),
  };
}

/**
 * A bare baseline: CSV text COPYed into tables in one transaction, no checks. The copies are
 * staged before the answered function runs (PostgreSQL reads server-side files, node-postgres
 * having no COPY FROM STDIN of its own; PGlite reads a blob), so only the database's work is timed.
 */
export function stagedCopy(db: Db, kind: "pglite" | "postgres", copies: Copy[]): () => Promise<void> {
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

export type Site = { db: Db; kind: "pglite" | "postgres"; storage: LocalDiskStorage; tenantId: string; type: RequirementTypeRow };

/**
 * `use` on a new, migrated database holding one site and its requirement types: each side of
 * each round starts from empty tables (a table a COPY has already grown costs the next COPY more
 * on PGlite, and a warm cache favours whoever runs second).
 */
export async function onNewDatabase<T>(context: BenchContext, use: (site: Site) => Promise<T>): Promise<T> {
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

/**
 * The import job of `fileContent`, stored and requested as the dialog does, ready to run on the
 * site's database or on another connection to it (`db`); it must import every row. It reports
 * progress as the queued job does, which also counts the file's rows for the total beside the import.
 */
export async function importJob(
  { db, storage, tenantId, type }: Site,
  fileContent: string,
  rowCount: number,
  hooks: ImportHooks = { progress: () => undefined },
): Promise<(db?: Db) => Promise<void>> {
  const request = ImportRequestSchema.parse({
    file_name: await putImportFile({ db, storage }, tenantId, fileContent),
    requirement_type: type.requirement_type_id,
    location: null,
    atlassian_project_id: 1,
    atlassian_component_json: JSON.stringify(COMPONENTS),
    atlassian_statuses_json: JSON.stringify(STATUSES),
  });
  return async (on = db) => {
    // An import sends no job; the write path is handed a queue that is never started.
    const jobs = new JobQueue(on, pino({ level: "silent" }), { definitions: [] });
    const result = await runImport({ db: on, storage, jobs }, { tenantId, accountId: ACCOUNT }, request, hooks);
    if (result.imported !== rowCount)
      throw new Error(`imported ${result.imported} of ${rowCount}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  };
}
