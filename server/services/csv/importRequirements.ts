import { stringify } from "csv-stringify";
import type { Knex } from "knex";
import { Readable } from "node:stream";
import {
  IMPORT_LEAVABLE_COLUMNS,
  type ImportRequest,
  type ImportResult,
  importErrorsFileName,
  MAX_REPORTED_ROW_ERRORS,
  ROW_ERRORS_SHOWN_IN_DIALOG,
} from "../../../common/schemas/csvImport.js";
import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import type { Attribute } from "../../../common/schemas/attribute.js";
import { listAttributes } from "../../db/attributeStore.js";
import {
  addCheckedDisplayIds,
  addImportErrors,
  addRefusedDisplayIds,
  createImportStaging,
  findCompletedImport,
  importErrorPages,
  importErrorSummary,
  isAlreadyImported,
  recordImport,
  setImportedRows,
} from "../../db/csvImportStore.js";
import { insertStagedRequirements, isDisplayIdUniqueViolation, stageImportRows } from "../../db/requirements/index.js";
import { countActiveFolders, findFolder } from "../../db/folderStore.js";
import { vacuumAfterBulkWrite, type Db } from "../../db/knex.js";
import { type RequirementTypeRow, findRequirementType } from "../../db/requirementTypeStore.js";
import { findUpload, insertUpload } from "../../db/uploadStore.js";
import { fieldError } from "../../errors.js";
import { newStoredFileName, storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import { readFileRows } from "./fileRows.js";
import { ImportFolders } from "./importFolders.js";
import { importFormatOf } from "./importFormat.js";
import { hostComponentsOf, hostStatusesOf } from "../../../common/importHostLists.js";

type ImportDeps = ServiceDeps<"jobs" | "storage">;
export type ImportHooks = {
  /** Called as rows are checked and written; must not wait on the database (it may run inside the transaction). */
  progress?: (rows: { completed?: number; total?: number }) => void;
  /** Runs inside the import's transaction after the last row: a job marks itself finished here, so both commit together. */
  beforeCommit?: (trx: Knex.Transaction, result: ImportResult) => Promise<void>;
};

/** Rows per staging write and per insert: each batch travels as one parameter, so its size is bounded by memory, not bind parameters. */
const BATCH_ROWS = 2000;
const FOLDER_DELETED_WHILE_IMPORTING = "A folder the import writes into was deleted while it ran. Import the file again.";
export const FILE_NOT_FOUND = "The file was not found. Upload it again.";

/**
 * What POST /api/import-issues checks before it starts a job (and the job again when it runs, and
 * once more inside its transaction under the locks that keep it true to the commit): the type,
 * the folder, and that the file is an import upload of the caller's own site.
 */
export async function checkImportRequest(db: Db, actor: Actor, request: ImportRequest, typeLock?: "share"): Promise<RequirementTypeRow> {
  const type = await findRequirementType(db, actor.tenantId, request.requirement_type, typeLock);
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
 * The import job's work (issue 37): the file is read once, before the project's folder tree is
 * locked, into staging tables of the import's transaction: every accepted row with its folder
 * resolved, every row's custom ID, every reason a row was refused. The checks that need the whole
 * file are statements over them. A refused file rolls back (no row, no folder is kept) and
 * answers every error: the first MAX_REPORTED_ROW_ERRORS listed, and when the dialog cannot show
 * them all, the complete list as a CSV file to download. Otherwise the tree is locked only for the
 * final set-based insert of the staged rows, in batches. Either every row is imported or none.
 */
export async function runImport(deps: ImportDeps, actor: Actor, request: ImportRequest, hooks: ImportHooks = {}): Promise<ImportResult> {
  const { tenantId } = actor;
  const done = await findCompletedImport(deps.db, tenantId, request.file_name);
  if (done) return { imported: done.importedRows, errors: [], error_count: 0 };
  const type = await checkImportRequest(deps.db, actor, request);
  const fields = await listAttributes(deps.db, tenantId, request.atlassian_project_id);
  hooks.progress?.({ completed: 0 });
  // Opened before the transaction: a storage that does not answer must not hold the import's locks.
  const file = await deps.storage.getObject(storageKey(tenantId, "imports", request.file_name));

  try {
    // Through the one write path (its transaction and lock order); the rows' 'created' revisions are
    // written by the insert's own statement, from the snapshot definition the write path uses.
    const imported = await withRequirementWrite(deps, actor, async (write) => {
      const trx = write.tx;
      // First, so a second worker on the same file waits here and then gives way.
      await recordImport(trx, tenantId, {
        uuidFileName: request.file_name,
        projectId: request.atlassian_project_id,
        createdBy: actor.accountId,
      });
      // The type cannot be deleted until the commit (shared row lock); the check before the file
      // was opened may be stale by now.
      await checkImportRequest(trx, actor, request, "share");
      const folders = new ImportFolders(trx, tenantId, {
        projectId: request.atlassian_project_id,
        folderId: request.location,
        createdBy: actor.accountId,
      });
      await createImportStaging(trx);
      const staged = await stageFile(trx, request, type, file, fields, folders);
      await addRefusedDisplayIds(trx, tenantId, request.atlassian_project_id, DISPLAY_ID_REASONS);
      await refuseOnErrors(deps, trx, actor);
      hooks.progress?.({ total: staged });

      // The folder tree is locked only now that the file is read: a folder moved or deleted
      // meanwhile did not wait for the file. A move leaves the rows' folders where the rows can be
      // found; a delete is found here (shared lock: it has committed) and the import refused.
      await write.lock([], { projectId: request.atlassian_project_id });
      const used = folders.folderIds();
      if ((await countActiveFolders(trx, tenantId, used)) !== used.length) {
        throw fieldError("location", FOLDER_DELETED_WHILE_IMPORTING);
      }
      await insertStaged(deps, trx, actor, { request, type, staged }, hooks);
      await setImportedRows(trx, tenantId, request.file_name, staged);
      const result = { imported: staged, errors: [], error_count: 0 };
      await hooks.beforeCommit?.(trx, result);
      return result;
    });
    await vacuumAfterBulkWrite(deps.db);
    return imported;
  } catch (error) {
    if (error instanceof ImportRefused) return recordErrorsFile(deps, actor, error.result);
    if (!isAlreadyImported(error)) throw error;
    const earlier = await findCompletedImport(deps.db, tenantId, request.file_name);
    return { imported: earlier?.importedRows ?? 0, errors: [], error_count: 0 };
  } finally {
    file.destroy();
  }
}

const DISPLAY_ID_REASONS = {
  usedInRow: 'ID "%s" is already used in row %s',
  usedInProject: 'ID "%s" is already used by another requirement in this project',
};

/**
 * Reads the file's rows into the staging tables, each accepted row with its folder (found or
 * created on the transaction); answers how many rows were accepted.
 */
async function stageFile(
  trx: Db,
  request: ImportRequest,
  type: RequirementTypeRow,
  file: Readable,
  fields: Attribute[],
  folders: ImportFolders,
): Promise<number> {
  const setup = {
    prefix: type.prefix,
    components: hostComponentsOf(request.atlassian_component_json),
    statuses: hostStatusesOf(request.atlassian_statuses_json),
    fields,
    additionalHeaders: request.additional_headers,
    assignBasedOnComponent: request.assign_based_on_component,
    // Global Requirements have no status or components: a file's columns of them are not read.
    leftOutColumns: request.atlassian_project_id === GLOBAL_PROJECT_ID ? IMPORT_LEAVABLE_COLUMNS : request.left_out_columns,
    leaveOutUnknownNames: request.leave_out_unknown_names,
    batchRows: BATCH_ROWS,
  };
  let staged = 0;
  let refused = false;
  for await (const event of readFileRows(importFormatOf(request.file_name).records(file, { sheet: request.sheet }), setup)) {
    await addImportErrors(trx, event.errors);
    refused ||= event.errors.length > 0;
    if (event.kind === "end") break;
    await addCheckedDisplayIds(trx, event.displayIds);
    // A file with a refused row is kept nowhere: its rows need no folders, nor staging.
    if (refused) continue;
    const rows = [];
    for (const row of event.rows) {
      rows.push({
        parent_folder_id: await folders.folderOf(row.folderPath),
        display_id: row.displayId,
        name: row.name,
        description: row.description,
        status_id: row.statusId,
        assigned_to: row.assignedTo,
        component_ids: row.componentIds,
        attributes: row.attributes,
      });
    }
    await stageImportRows(trx, staged + 1, rows);
    staged += rows.length;
  }
  return staged;
}

/** A refused file: its errors (all of them, if the dialog cannot show them all, in a file written now, before the rollback drops them). */
async function refuseOnErrors(deps: ImportDeps, trx: Db, actor: Actor): Promise<void> {
  const { listed, count } = await importErrorSummary(trx, MAX_REPORTED_ROW_ERRORS);
  if (count === 0) return;
  const result: ImportResult = { imported: 0, errors: listed, error_count: count };
  if (count > ROW_ERRORS_SHOWN_IN_DIALOG) {
    const original_file_name = importErrorsFileName(new Date());
    const file_name = newStoredFileName(original_file_name);
    const lines = async function* () {
      for await (const page of importErrorPages(trx, ERROR_FILE_PAGE_ROWS)) yield* page.map((error) => [error.row, error.reason]);
    };
    const csv = Readable.from(lines()).pipe(stringify({ header: true, columns: ["Row", "Reason"], bom: true }));
    await deps.storage.putStream(storageKey(actor.tenantId, "imports", file_name), csv, "text/csv");
    result.errors_file = { file_name, original_file_name };
  }
  throw new ImportRefused(result);
}

/** Rows of the errors file read from the staging table at a time. */
const ERROR_FILE_PAGE_ROWS = 5000;

/**
 * The errors file is named once the rollback is over (its row would roll back with the import):
 * an upload of the import area, so sign-s3-get hands it out and retention removes it with the
 * uploaded file (pruneExpired).
 */
async function recordErrorsFile(deps: ImportDeps, actor: Actor, result: ImportResult): Promise<ImportResult> {
  if (result.errors_file) {
    await insertUpload(deps.db, actor.tenantId, {
      uuidFileName: result.errors_file.file_name,
      operation: "import",
      originalFileName: result.errors_file.original_file_name,
      contentType: "text/csv",
      createdBy: actor.accountId,
    });
  }
  return result;
}

/**
 * The staged rows as requirements, in batches (progress between them). In a savepoint: a custom
 * ID another write took since the check (the tree lock is shared with single writes) fails the
 * unique index; the check then runs again and the import is refused naming it.
 */
async function insertStaged(
  deps: ImportDeps,
  trx: Db,
  actor: Actor,
  { request, type, staged }: { request: ImportRequest; type: RequirementTypeRow; staged: number },
  hooks: ImportHooks,
): Promise<void> {
  const into = { projectId: request.atlassian_project_id, createdBy: actor.accountId, type };
  try {
    await (trx as Knex.Transaction).transaction(async (savepoint) => {
      for (let fromOrd = 1; fromOrd <= staged; fromOrd += BATCH_ROWS) {
        const toOrd = Math.min(staged, fromOrd + BATCH_ROWS - 1);
        await insertStagedRequirements(savepoint, actor.tenantId, into, { fromOrd, toOrd });
        hooks.progress?.({ completed: toOrd });
      }
    });
  } catch (error) {
    if (!isDisplayIdUniqueViolation(error)) throw error;
    await addRefusedDisplayIds(trx, actor.tenantId, request.atlassian_project_id, DISPLAY_ID_REASONS);
    await refuseOnErrors(deps, trx, actor);
    throw error;
  }
}

/** Thrown out of the import's transaction to roll it back when a row was refused. */
class ImportRefused extends Error {
  constructor(readonly result: ImportResult) {
    super("import refused");
  }
}
