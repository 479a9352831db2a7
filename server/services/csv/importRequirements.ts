import type { Knex } from "knex";
import type { Readable } from "node:stream";
import {
  IMPORT_LEAVABLE_COLUMNS,
  type ImportRequest,
  type ImportResult,
  MAX_REPORTED_ROW_ERRORS,
} from "../../../common/schemas/csvImport.js";
import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import type { Attribute } from "../../../common/schemas/attribute.js";
import { listAttributes } from "../../db/attributeStore.js";
import {
  addCheckedDisplayIds,
  createCheckedDisplayIds,
  findCompletedImport,
  type ImportedRequirement,
  insertImportBatch,
  isAlreadyImported,
  isDisplayIdTaken,
  recordImport,
  refusedDisplayIds,
  setImportedRows,
} from "../../db/csvImportStore.js";
import { countActiveFolders, findFolder } from "../../db/folderStore.js";
import type { Db } from "../../db/knex.js";
import { type RequirementTypeRow, findRequirementType } from "../../db/requirementTypeStore.js";
import { findUpload } from "../../db/uploadStore.js";
import { fieldError } from "../../errors.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import { type FileRowsEvent, readFileRows, RowErrors } from "./fileRows.js";
import { ImportFolders } from "./importFolders.js";
import { importFormatOf } from "./importFormat.js";
import { hostComponentsOf, hostStatusesOf } from "../../../common/importHostLists.js";
import type { ImportedRow } from "./importRows.js";

type ImportDeps = ServiceDeps<"jobs" | "storage">;
export type ImportHooks = {
  /** Called as rows are checked and written; must not wait on the database (it may run inside the transaction). */
  progress?: (rows: { completed?: number; total?: number }) => void;
  /** Runs inside the import's transaction after the last row: a job marks itself finished here, so both commit together. */
  beforeCommit?: (trx: Knex.Transaction, result: ImportResult) => Promise<void>;
};

/** Rows per insert: each column travels as one array, so a batch's size is bounded by memory, not bind parameters. */
const BATCH_ROWS = 2000;
const FOLDER_DELETED_WHILE_IMPORTING = "A folder the import writes into was deleted while it ran. Import the file again.";
export const FILE_NOT_FOUND = "The file was not found. Upload it again.";

/**
 * What POST /api/import-issues checks before it starts a job (and the job again when it runs, and
 * once more inside its transaction under the locks that keep it true to the commit): the type,
 * the folder, and that the file is an import upload of the caller's own site.
 */
export async function checkImportRequest(
  db: Db,
  actor: Actor,
  request: ImportRequest,
  typeLock?: "share",
): Promise<RequirementTypeRow> {
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
 * The import job's work, in one streamed pass inside one transaction: each row is checked and
 * written in batches of multi-row inserts, each requirement with its 'created' revision. The
 * first refused row (by the checks, or a custom ID by the project's unique index) stops the
 * writing and rolls the transaction back; a second pass that only checks then names every
 * refused row. Either every row is imported or none. The import's memory stays flat in the
 * file's size (the folders it names aside): the checking pass keeps the custom IDs it has seen in
 * its transaction, not in memory.
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
  const { progress } = hooks;
  if (progress) {
    progress({ completed: 0 });
    // Counted beside the import rather than before it: the import waits on the database most of the time.
    readFile()
      .then((input) => importFormatOf(request.file_name).count(input, request.sheet))
      .then((records) => progress({ total: Math.max(0, records - 1) }))
      .catch(() => undefined);
  }
  // Opened before the transaction: a storage that does not answer must not hold the import's locks.
  const file = await readFile();

  try {
    // Through the one write path (its transaction and lock order); the rows' 'created' revisions are
    // written by the batch's own statement, from the snapshot definition the write path uses.
    return await withRequirementWrite(deps, actor, async (write) => {
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
      const imported = await checkAndWrite(trx, actor, request, type, file, fields, hooks, { write: true }, folders);
      // Issue 37: the folder tree is locked only now that the file is read and its rows written, so
      // a folder moved or deleted meanwhile did not wait for the whole file. A move leaves the rows'
      // folders where the rows can be found; a delete is found here (shared lock: it has committed)
      // and the import refused, every row rolled back.
      await write.lock([], { projectId: request.atlassian_project_id });
      const used = folders.folderIds();
      if ((await countActiveFolders(trx, tenantId, used)) !== used.length) {
        throw fieldError("location", FOLDER_DELETED_WHILE_IMPORTING);
      }
      await setImportedRows(trx, tenantId, request.file_name, imported);
      const result = { imported, errors: [], error_count: 0 };
      await hooks.beforeCommit?.(trx, result);
      return result;
    });
  } catch (error) {
    if (error instanceof ImportRefused) return error.result;
    if (error instanceof RefusedWhileWriting) return reportRefusedRows(deps, actor, request, type, await readFile(), fields);
    if (!isAlreadyImported(error)) throw error;
    const earlier = await findCompletedImport(deps.db, tenantId, request.file_name);
    return { imported: earlier?.importedRows ?? 0, errors: [], error_count: 0 };
  } finally {
    file.destroy();
  }
}

/**
 * After a row was refused while writing (and the transaction rolled back): the file checked
 * again without writing, so the result names every refused row.
 */
async function reportRefusedRows(
  deps: ImportDeps,
  actor: Actor,
  request: ImportRequest,
  type: RequirementTypeRow,
  file: Readable,
  fields: Attribute[],
): Promise<ImportResult> {
  try {
    await deps.db.transaction(async (trx) => {
      await createCheckedDisplayIds(trx);
      await checkAndWrite(trx, actor, request, type, file, fields, {}, { write: false });
    });
  } catch (error) {
    if (error instanceof ImportRefused) return error.result;
    throw error;
  }
  // The requirement holding the ID was deleted in between: the job's retry imports the file.
  throw new Error("A custom ID was taken during the import and is free again");
}

/** Thrown out of the import's transaction to roll it back when a row was refused. */
class ImportRefused extends Error {
  constructor(readonly result: ImportResult) {
    super("import refused");
  }
}

/**
 * Writing stopped at a refused row: one the checks refused, or a custom ID that the project's
 * unique index refused because an earlier row of the file or another requirement has it.
 */
class RefusedWhileWriting extends Error {
  constructor() {
    super("row refused while writing");
  }
}

/**
 * With `write`, checks and writes the file's rows until one is refused (RefusedWhileWriting) and
 * answers the rows written. Without, checks every row and throws ImportRefused naming each refused
 * one. Writing leaves custom IDs to the project's unique index, which refuses one used twice in the
 * file or already in the project: the IDs are not kept, so a successful import's memory stays flat
 * in the file's size, and not looked up, since the lookups cost as much as the writes they guard.
 * Only checking keeps them, in a table of its transaction (createCheckedDisplayIds), to name a
 * duplicate's first row and the IDs the project already has once the whole file is read.
 */
async function checkAndWrite(
  db: Db,
  actor: Actor,
  request: ImportRequest,
  type: RequirementTypeRow,
  file: Readable,
  fields: Attribute[],
  hooks: ImportHooks,
  mode: { write: boolean },
  folders = new ImportFolders(db, actor.tenantId, {
    projectId: request.atlassian_project_id,
    folderId: request.location,
    createdBy: actor.accountId,
  }),
): Promise<number> {
  const { tenantId } = actor;
  const errors = new RowErrors();
  let written = 0;
  let stoppedAtRefusedRow = false;
  const insert = async (rows: ImportedRow[], parentFolderIds: (number | null)[]) => {
    try {
      await insertImportBatch(
        db,
        tenantId,
        type,
        rows.map((row, index) => toRequirement(row, parentFolderIds[index] ?? null, actor, request, type)),
      );
    } catch (error) {
      throw isDisplayIdTaken(error) ? new RefusedWhileWriting() : error;
    }
    written += rows.length;
    hooks.progress?.({ completed: written });
  };
  // The database writes a batch while the next one is read. The next batch's statement is queued
  // behind it on the transaction's connection, so the database starts it the moment the previous
  // one ends instead of waiting for this loop to build it (5 ms a batch on PostgreSQL). A batch
  // failing aborts the transaction, so whatever is queued behind it fails too: the earlier failure
  // is the one thrown. Folders are resolved here, one batch after the other, before the batch is
  // queued: two batches naming a new folder create it once, and statements go out in file order.
  let writing: Promise<void> = Promise.resolve();
  const queue = async ({ rows, displayIds }: Extract<FileRowsEvent, { kind: "rows" }>) => {
    const previous = writing;
    if (!mode.write) {
      writing = addCheckedDisplayIds(db, displayIds);
    } else {
      const parentFolderIds: (number | null)[] = [];
      try {
        for (const row of rows) parentFolderIds.push(await folders.folderOf(row.folderPath));
      } catch (error) {
        await previous;
        throw error;
      }
      writing = insert(rows, parentFolderIds);
    }
    // Awaited at the next batch or the end; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
    await previous;
  };
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
    stopAtRefusedRow: mode.write,
  };
  const records = importFormatOf(request.file_name).records(file, { sheet: request.sheet });
  for await (const event of readFileRows(records, setup)) {
    if (event.kind === "rows") {
      await queue(event);
    } else {
      errors.merge(event.errors, event.errorCount);
      ({ stoppedAtRefusedRow } = event);
    }
  }
  await writing;
  // The rows after the first refused one are still unchecked; a file refused as a whole (no Name column, no rows) is fully reported.
  if (stoppedAtRefusedRow) throw new RefusedWhileWriting();
  if (!mode.write) {
    const refused = await refusedDisplayIds(db, tenantId, request.atlassian_project_id, MAX_REPORTED_ROW_ERRORS);
    errors.merge(
      refused.listed.map(({ row, displayId, firstRow }) => ({
        row,
        reason:
          firstRow === null
            ? `ID "${displayId}" is already used by another requirement in this project`
            : `ID "${displayId}" is already used in row ${firstRow}`,
      })),
      refused.count,
    );
  }
  if (errors.count > 0) {
    const { errors: listed, errorCount } = errors.summary();
    throw new ImportRefused({ imported: 0, errors: listed, error_count: errorCount });
  }
  return written;
}

function toRequirement(
  row: ImportedRow,
  parentFolderId: number | null,
  actor: Actor,
  request: ImportRequest,
  type: RequirementTypeRow,
): ImportedRequirement {
  return {
    projectId: request.atlassian_project_id,
    parentFolderId,
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
