import type { Db } from "./knex.js";

/** A file the browser uploads (or a job writes) through presigned URLs: one row of `attachments`. */
export type Upload = {
  uuidFileName: string;
  operation: "attachment" | "import" | "export";
  originalFileName: string;
  contentType: string | null;
  sizeBytes: number | null;
  requirementId: number | null;
};

type UploadRow = {
  uuid_file_name: string;
  operation: Upload["operation"];
  original_file_name: string;
  content_type: string | null;
  size_bytes: number | string | null;
  requirement_id: number | string | null;
};

function toUpload(row: UploadRow): Upload {
  return {
    uuidFileName: row.uuid_file_name,
    operation: row.operation,
    originalFileName: row.original_file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    requirementId: row.requirement_id === null ? null : Number(row.requirement_id),
  };
}

/** Records a signed upload; requirement_id stays null until a requirement's PATCH attaches it. */
export async function insertUpload(
  db: Db,
  tenantId: string,
  upload: Pick<Upload, "uuidFileName" | "operation" | "originalFileName" | "contentType"> & { createdBy: string },
): Promise<void> {
  await db("attachments").insert({
    tenant_id: tenantId,
    uuid_file_name: upload.uuidFileName,
    operation: upload.operation,
    original_file_name: upload.originalFileName,
    content_type: upload.contentType,
    created_by: upload.createdBy,
  });
}

export async function findUpload(db: Db, tenantId: string, uuidFileName: string): Promise<Upload | undefined> {
  const row = await db("attachments").where({ tenant_id: tenantId, uuid_file_name: uuidFileName }).first<UploadRow | undefined>();
  return row ? toUpload(row) : undefined;
}

/** Stores what storage reports about the uploaded bytes, rather than what the browser announced. */
export async function recordUploadedObject(
  db: Db,
  tenantId: string,
  uuidFileName: string,
  stored: { size: number; contentType: string },
): Promise<void> {
  await db("attachments")
    .where({ tenant_id: tenantId, uuid_file_name: uuidFileName })
    .update({ size_bytes: stored.size, content_type: stored.contentType });
}

/** The files on a requirement's attachment list. */
export async function attachedFileNames(db: Db, tenantId: string, requirementId: number): Promise<string[]> {
  const rows: { uuid_file_name: string }[] = await db("attachments")
    .where({ tenant_id: tenantId, requirement_id: requirementId, operation: "attachment" })
    .select("uuid_file_name");
  return rows.map((row) => row.uuid_file_name);
}
