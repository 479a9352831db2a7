import { flattenErrorBody } from "../../../common/errors.js";
import { type ReqifImportRequest, ReqifImportRequestSchema, type ReqifPreview } from "../../../common/schemas/reqif.js";
import { setJobProgress } from "../../db/jobStore.js";
import { findUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { AppError, fieldError } from "../../errors.js";
import { defineJob, JobFailure } from "../../jobs/defineJob.js";
import { startJob } from "../../jobs/startJob.js";
import { ObjectNotFoundError } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { checkReqifImportRequest, importReqifDocument } from "./importReqif.js";
import { openReqifUpload, type OpenedReqif } from "./openReqifUpload.js";
import { countHierarchyObjects } from "./reqifDocument.js";
import { ReqifFileError } from "./readReqif.js";

const FILE_NOT_FOUND = "The file was not found. Upload it again.";

/**
 * A ReqIF import on the job queue. It is idempotent by the file's identifiers: a retried
 * delivery whose earlier try committed updates what that try created (and finds the job
 * finished: job.finish runs in the same transaction), so nothing is created twice.
 */
export const reqifImportJob = defineJob({
  name: "import-reqif",
  payload: ReqifImportRequestSchema,
  retry: { expireInSeconds: 3600 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    const file = await openUpload(deps, actor, payload.file_name).catch(failOnBadFile);
    try {
      return await importReqifDocument(deps, actor, payload, file, {
        progress: job.progress,
        beforeCommit: async (trx, result) => {
          const total = file.document.specObjects.size + file.document.relations.length;
          await setJobProgress(trx, job.tenantId, job.id, { completed: total, total });
          await job.finish(trx, result);
        },
      }).catch(failOnBadFile);
    } finally {
      await file.close();
    }
  },
});

/** A file or request that cannot be imported: the job fails at once with the reason (no retry can help). */
function failOnBadFile(error: unknown): never {
  if (error instanceof ReqifFileError) throw new JobFailure(`The ReqIF file cannot be imported: ${error.message}`);
  if (error instanceof AppError && error.status < 500) throw new JobFailure(flattenErrorBody(error.body));
  throw error;
}

async function openUpload(deps: ServiceDeps<"storage">, actor: Actor, fileName: string): Promise<OpenedReqif> {
  const upload = await findUpload(deps.db, actor.tenantId, fileName);
  if (upload?.operation !== "import") throw fieldError("file_name", FILE_NOT_FOUND);
  try {
    return await openReqifUpload(deps.storage, actor.tenantId, fileName);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw fieldError("file_name", FILE_NOT_FOUND);
    throw error;
  }
}

/** POST /api/import-reqif: refuses a bad request (400) before any job exists, then answers the job id. */
export async function startReqifImport(deps: Pick<AppDeps, "db" | "jobs">, actor: Actor, request: ReqifImportRequest): Promise<string> {
  await checkReqifImportRequest(deps.db, actor, request);
  return startJob(deps, actor, reqifImportJob, request);
}

/** POST /api/import-reqif/preview: what the file holds, read the way the import reads it. A file that is not ReqIF is a 400 on file_name. */
export async function previewReqif(deps: ServiceDeps<"storage">, actor: Actor, fileName: string): Promise<ReqifPreview> {
  let file: OpenedReqif;
  try {
    file = await openUpload(deps, actor, fileName);
  } catch (error) {
    if (error instanceof ReqifFileError) throw fieldError("file_name", `The file is not a ReqIF file we can read: ${error.message}`);
    throw error;
  }
  await file.close();
  const { document } = file;
  return {
    specifications: document.specifications.map((specification) => ({
      identifier: specification.identifier,
      long_name: specification.longName ?? specification.identifier,
      object_count: countHierarchyObjects(specification.children),
    })),
    spec_object_types: [...document.specObjectTypes.values()].map((type) => ({
      identifier: type.identifier,
      long_name: type.longName,
      attribute_definitions: type.attributeDefinitions.map((definition) => ({
        identifier: definition.identifier,
        long_name: definition.longName,
        datatype: definition.datatype,
      })),
    })),
    object_count: document.specObjects.size,
    relation_count: document.relations.length,
  };
}
