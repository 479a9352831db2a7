import type { Knex } from "knex";
import type { Readable } from "node:stream";
import { mapHeaders } from "../../../common/csvHeaders.js";
import {
  type ImportRequest,
  type ImportResult,
  type ImportRowError,
  MAX_REPORTED_ROW_ERRORS,
} from "../../../common/schemas/csvImport.js";
import { listAttributes } from "../../db/attributeStore.js";
import {
  displayIdsInUse,
  findCompletedImport,
  type ImportedRequirement,
  insertImportBatch,
  isAlreadyImported,
  recordImport,
} from "../../db/csvImportStore.js";
import { findFolder } from "../../db/folderStore.js";
import type { Db } from "../../db/knex.js";
import { type RequirementTypeRow, findRequirementType } from "../../db/requirementTypeStore.js";
import { findUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { AppError, fieldError } from "../../errors.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { csvRecords } from "./csvRecords.js";
import { buildRowRules, hostComponentsOf, hostStatusesOf, type ImportedRow, readRow, type RowRules } from "./importRows.js";

type ImportDeps = ServiceDeps & Pick<AppDeps, "storage">;
export type ImportHooks = {
  /** Called as rows are checked and written; must not wait on the database (it may run inside the transaction). */
  progress?: (rows: { completed?: number; total?: number }) => void;
  /** Runs inside the import's transaction after the last row: a job marks itself finished here, so both commit together. */
  beforeCommit?: (trx: Knex.Transaction, result: ImportResult) => Promise<void>;
};

/** Rows per multi-row insert: about 11,000 bind parameters, well under PostgreSQL's 65,535. */
const BATCH_ROWS = 1000;
const FILE_NOT_FOUND = "The file was not found. Upload it again.";

/**
 * What POST /api/import-issues checks before it starts a job (and the job again when it runs):
 * the type, the folder, and that the file is an import upload of the caller's own site.
 */
export async function checkImportRequest(db: Db, actor: Actor, request: ImportRequest): Promise<RequirementTypeRow> {
  const type = await findRequirementType(db, actor.tenantId, request.requirement_type);
  if (!type) throw fieldError("requirement_type", "Choose an existing requirement type");
  if (request.location !== null) {
    const folder = await findFolder(db, actor.tenantId, request.location);
    if (!folder || folder.project_id !== request.atlassian_project_id) {
      throw fieldError("location", "The folder does not exist in this project");
    }
  }
  const upload = await findUpload(db, actor.tenantId, request.file_name);
  if (upload?.operation !== "import") throw fieldError("file_name", FILE_NOT_FOUND);
  return type;
}

/**
 * The import job's work: a first streamed pass checks every row (keeping only the custom IDs,
 * for duplicates), then, if no row is refused, one transaction writes all of them in batches of
 * multi-row inserts, each requirement with its 'created' revision. Either every row is
 * imported or none; the result names each refused row. Memory stays flat in the file's size.
 */
export async function runImport(
  deps: ImportDeps,
  actor: Actor,
  request: ImportRequest,
  hooks: ImportHooks = {},
): Promise<ImportResult> {
  const { tenantId } = actor;
  const done = await findCompletedImport(deps.db, tenantId, request.file_name);
  if (done) return { imported: done.importedRows, errors: [], error_count: 0 };
  const type = await checkImportRequest(deps.db, actor, request);
  const readFile = () => deps.storage.getObject(storageKey(tenantId, "imports", request.file_name));
  const fields = await listAttributes(deps.db, tenantId, request.atlassian_project_id);

  let rules: RowRules | undefined;
  const rulesFor = (headers: string[]) =>
    buildRowRules({
      mapping: mapHeaders(headers, fields),
      prefix: type.prefix,
      components: hostComponentsOf(request.atlassian_component_json),
      statuses: hostStatusesOf(request.atlassian_statuses_json),
      fields,
      additionalHeaders: request.additional_headers,
      assignBasedOnComponent: request.assign_based_on_component,
    });

  const errors = new RowErrors();
  const rowOfDisplayId = new Map<string, number>();
  let totalRows = 0;
  for await (const { cells, row } of numbered(await readFile())) {
    if (!rules) {
      rules = rulesFor(cells);
      if (rules.mapping.name !== undefined) continue;
      errors.add(row, "The file has no Name column (Name or Summary)");
      break;
    }
    totalRows += 1;
    const reading = readRow(cells, rules);
    for (const reason of reading.errors) errors.add(row, reason);
    const displayId = reading.row?.displayId;
    if (!displayId) continue;
    const first = rowOfDisplayId.get(displayId);
    if (first === undefined) rowOfDisplayId.set(displayId, row);
    else errors.add(row, `ID "${displayId}" is already used in row ${first}`);
  }
  if (!rules) errors.add(1, "The file is empty");
  else if (totalRows === 0 && errors.count === 0) errors.add(2, "The file has no requirements to import");
  await reportTaken(deps.db, tenantId, request.atlassian_project_id, rowOfDisplayId, errors);
  if (errors.count > 0) return errors.result();
  rowOfDisplayId.clear();
  hooks.progress?.({ completed: 0, total: totalRows });

  const imported = await writeAll(deps, actor, request, type, readFile, rulesFor, totalRows, hooks).catch((error) => {
    if (isAlreadyImported(error)) return undefined;
    throw error;
  });
  if (imported === undefined) {
    const earlier = await findCompletedImport(deps.db, tenantId, request.file_name);
    return { imported: earlier?.importedRows ?? 0, errors: [], error_count: 0 };
  }
  return { imported, errors: [], error_count: 0 };
}

async function writeAll(
  deps: ImportDeps,
  actor: Actor,
  request: ImportRequest,
  type: RequirementTypeRow,
  readFile: () => Promise<Readable>,
  rulesFor: (headers: string[]) => RowRules,
  totalRows: number,
  hooks: ImportHooks,
): Promise<number> {
  const { tenantId } = actor;
  return deps.db.transaction(async (trx) => {
    // First, so a second worker on the same file waits here and then gives way.
    await recordImport(trx, tenantId, {
      uuidFileName: request.file_name,
      projectId: request.atlassian_project_id,
      importedRows: totalRows,
      createdBy: actor.accountId,
    });
    // Held to the commit: the type cannot be deleted under the import.
    await findRequirementType(trx, tenantId, type.requirement_type_id, "share");
    let rules: RowRules | undefined;
    let batch: ImportedRow[] = [];
    let written = 0;
    const flush = async () => {
      await insertImportBatch(trx, tenantId, type, batch.map((row) => toRequirement(row, actor, request, type)));
      written += batch.length;
      batch = [];
      hooks.progress?.({ completed: written });
    };
    for await (const { cells, row } of numbered(await readFile())) {
      if (!rules) {
        rules = rulesFor(cells);
        continue;
      }
      const reading = readRow(cells, rules);
      // The file was checked whole before; a change under us must not write a half import.
      if (!reading.row) throw new AppError(409, { Result: `Row ${row} changed since it was checked` });
      batch.push(reading.row);
      if (batch.length === BATCH_ROWS) await flush();
    }
    if (batch.length > 0) await flush();
    if (written !== totalRows) throw new AppError(409, { Result: "The file changed while it was imported" });
    await hooks.beforeCommit?.(trx, { imported: written, errors: [], error_count: 0 });
    return written;
  });
}

/** Records with their row number as a spreadsheet shows it: the header is row 1. */
async function* numbered(input: Readable): AsyncGenerator<{ cells: string[]; row: number }> {
  let row = 0;
  for await (const cells of csvRecords(input)) {
    row += 1;
    yield { cells, row };
  }
}

async function reportTaken(
  db: Db,
  tenantId: string,
  projectId: number,
  rowOfDisplayId: Map<string, number>,
  errors: RowErrors,
): Promise<void> {
  const ids = [...rowOfDisplayId.keys()];
  for (let start = 0; start < ids.length; start += BATCH_ROWS) {
    for (const taken of await displayIdsInUse(db, tenantId, projectId, ids.slice(start, start + BATCH_ROWS))) {
      errors.add(rowOfDisplayId.get(taken) ?? 0, `ID "${taken}" is already used by another requirement in this project`);
    }
  }
}

/** Row errors in row order, the first MAX_REPORTED_ROW_ERRORS of them listed, all of them counted. */
class RowErrors {
  private readonly listed: ImportRowError[] = [];
  count = 0;

  add(row: number, reason: string): void {
    this.count += 1;
    if (this.listed.length < MAX_REPORTED_ROW_ERRORS) this.listed.push({ row, reason });
  }

  result(): ImportResult {
    return { imported: 0, errors: [...this.listed].sort((a, b) => a.row - b.row), error_count: this.count };
  }
}

function toRequirement(
  row: ImportedRow,
  actor: Actor,
  request: ImportRequest,
  type: RequirementTypeRow,
): ImportedRequirement {
  return {
    projectId: request.atlassian_project_id,
    parentFolderId: request.location,
    requirementTypeId: type.requirement_type_id,
    displayId: row.displayId,
    name: row.name,
    description: row.description,
    statusId: row.statusId,
    assignedTo: row.assignedTo,
    createdBy: actor.accountId,
    componentIds: row.componentIds,
    attributes: row.attributes,
  };
}
