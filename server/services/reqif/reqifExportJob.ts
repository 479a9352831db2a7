import { PassThrough, Readable } from "node:stream";
import yazl from "yazl";
import { type ReqifExportRequest, ReqifExportRequestSchema } from "../../../common/schemas/reqif.js";
import { insertUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { defineJob } from "../../jobs/defineJob.js";
import { startJob } from "../../jobs/startJob.js";
import { newStoredFileName, storageKey } from "../../storage/objectStorage.js";
import type { Actor } from "../context.js";
import { checkReqifExportRequest, type ExportedFile, reqifExportChunks } from "./exportReqif.js";

/** The name the export downloads under: what it holds and the day (UTC). */
export function reqifExportFileName(request: ReqifExportRequest, now: Date): string {
  const scope =
    request.baseline_id !== null
      ? `baseline-${request.baseline_id}`
      : request.folder_id !== null
        ? `folder-${request.folder_id}`
        : "project";
  const day = now.toISOString().slice(0, 10);
  return `rmcloud-${request.atlassian_project_id}-${scope}-${day}.${request.include_attachments ? "reqifz" : "reqif"}`;
}

/**
 * The ReqIF export on the job queue: the file is streamed into storage (a .reqifz archive with the
 * attachments when asked) and recorded as an export of the site, which POST /api/sign-s3-get
 * hands out by `result.file_name`. A retried delivery writes a new file; the first one is never
 * named in a result, and the hourly export clean-up does not know it (it is small).
 */
export const reqifExportJob = defineJob({
  name: "export-reqif",
  payload: ReqifExportRequestSchema,
  retry: { expireInSeconds: 3600 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    const now = new Date();
    const originalFileName = reqifExportFileName(payload, now);
    const uuidFileName = newStoredFileName(originalFileName);
    const files: ExportedFile[] = [];
    const chunks = reqifExportChunks(deps, actor, payload, files, (completed) => job.progress({ completed }), now);
    const key = storageKey(job.tenantId, "exports", uuidFileName);
    if (payload.include_attachments) {
      await deps.storage.putStream(key, archiveOf(chunks, files), "application/zip");
    } else {
      await deps.storage.putStream(key, Readable.from(chunks), "application/xml");
    }
    await insertUpload(deps.db, job.tenantId, {
      uuidFileName,
      operation: "export",
      originalFileName,
      contentType: payload.include_attachments ? "application/zip" : "application/xml",
      createdBy: job.accountId,
    });
    return { file_name: uuidFileName, original_file_name: originalFileName };
  },
});

/**
 * A .reqifz: the .reqif first, then each attachment its text names. The attachments are known only
 * once the .reqif is written, so they are added as it ends; each is read from storage when the
 * archive reaches it.
 */
function archiveOf(chunks: AsyncGenerator<string>, files: ExportedFile[]): Readable {
  const zip = new yazl.ZipFile();
  const reqif = new PassThrough();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  zip.addReadStream(reqif, "requirements.reqif");
  Readable.from(chunks)
    .on("error", (error) => out.destroy(error))
    .on("end", () => {
      for (const file of files) {
        zip.addReadStreamLazy(file.archivePath, (done) => {
          file.open().then(
            (stream) => done(null, stream),
            (error: Error) => done(error, undefined as never),
          );
        });
      }
      zip.end();
    })
    .pipe(reqif);
  zip.on("error", (error: Error) => out.destroy(error));
  return out;
}

/** POST /api/requirement/export/reqif: checks the request (400) before any job exists, then answers the job id. */
export async function startReqifExport(deps: Pick<AppDeps, "db" | "jobs">, actor: Actor, request: ReqifExportRequest): Promise<string> {
  await checkReqifExportRequest(deps, actor, request);
  return startJob(deps, actor, reqifExportJob, request);
}
