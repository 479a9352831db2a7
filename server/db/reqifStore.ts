import type { Db } from "./knex.js";
import { lockName } from "./queryHelpers.js";

/** What a ReqIF identifier stands for in a project (migration 0024). */
export type ReqifTarget = { requirementId: number } | { folderId: number };

/** Identifiers per lookup: each travels as one array parameter. */
const LOOKUP_CHUNK = 5000;

/** Held by a ReqIF import until it commits: two imports into one project take turns, so neither creates what the other does. */
export async function lockReqifImports(db: Db, tenantId: string, projectId: number): Promise<void> {
  await lockName(db, `reqif-import:${tenantId}:${projectId}`, "exclusive");
}

/** The active requirements and folders of the project that earlier imports created from these identifiers. */
export async function findReqifTargets(
  db: Db,
  tenantId: string,
  projectId: number,
  identifiers: string[],
): Promise<Map<string, ReqifTarget>> {
  const targets = new Map<string, ReqifTarget>();
  for (let start = 0; start < identifiers.length; start += LOOKUP_CHUNK) {
    const { rows } = await db.raw(
      `SELECT i.reqif_identifier, i.requirement_id, i.folder_id
       FROM reqif_identifiers i
       LEFT JOIN requirements r ON r.tenant_id = i.tenant_id AND r.requirement_id = i.requirement_id AND r.deleted_at IS NULL
       LEFT JOIN folders f ON f.tenant_id = i.tenant_id AND f.folder_id = i.folder_id AND f.deleted_at IS NULL
       WHERE i.tenant_id = ? AND i.project_id = ? AND i.reqif_identifier = ANY(?::text[])
         AND (r.requirement_id IS NOT NULL OR f.folder_id IS NOT NULL)`,
      [tenantId, projectId, identifiers.slice(start, start + LOOKUP_CHUNK)],
    );
    for (const row of rows as { reqif_identifier: string; requirement_id: string | number | null; folder_id: string | number | null }[]) {
      targets.set(
        row.reqif_identifier,
        row.requirement_id !== null ? { requirementId: Number(row.requirement_id) } : { folderId: Number(row.folder_id) },
      );
    }
  }
  return targets;
}

/** Records (or moves) identifiers onto what an import created. */
export async function saveReqifTargets(
  db: Db,
  tenantId: string,
  projectId: number,
  entries: { identifier: string; target: ReqifTarget }[],
): Promise<void> {
  if (entries.length === 0) return;
  // One array per column: a row per bind parameter would pass PostgreSQL's 65,535 at 13,000 entries.
  await db.raw(
    `INSERT INTO reqif_identifiers (tenant_id, project_id, reqif_identifier, requirement_id, folder_id)
     SELECT CAST(:tenantId AS uuid), CAST(:projectId AS bigint), entry.identifier, entry.requirement_id, entry.folder_id
     FROM unnest(CAST(:identifiers AS text[]), CAST(:requirementIds AS bigint[]), CAST(:folderIds AS bigint[]))
       AS entry(identifier, requirement_id, folder_id)
     ON CONFLICT (tenant_id, project_id, reqif_identifier)
     DO UPDATE SET requirement_id = EXCLUDED.requirement_id, folder_id = EXCLUDED.folder_id`,
    {
      tenantId,
      projectId,
      identifiers: entries.map(({ identifier }) => identifier),
      requirementIds: entries.map(({ target }) => ("requirementId" in target ? target.requirementId : null)),
      folderIds: entries.map(({ target }) => ("folderId" in target ? target.folderId : null)),
    },
  );
}

/** The identifier each requirement was imported under in its project, if any. */
export async function reqifIdentifiersOfRequirements(
  db: Db,
  tenantId: string,
  projectId: number,
  requirementIds: number[],
): Promise<Map<number, string>> {
  const identifiers = new Map<number, string>();
  if (requirementIds.length === 0) return identifiers;
  const rows: { requirement_id: string | number; reqif_identifier: string }[] = await db("reqif_identifiers")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereIn("requirement_id", requirementIds)
    .select("requirement_id", "reqif_identifier");
  for (const row of rows) identifiers.set(Number(row.requirement_id), row.reqif_identifier);
  return identifiers;
}

/** The files on each requirement's attachment list, in upload order. */
export async function attachmentsOfRequirements(
  db: Db,
  tenantId: string,
  requirementIds: number[],
): Promise<Map<number, { uuid_file_name: string; original_file_name: string }[]>> {
  const attachments = new Map<number, { uuid_file_name: string; original_file_name: string }[]>();
  if (requirementIds.length === 0) return attachments;
  const rows: { requirement_id: string | number; uuid_file_name: string; original_file_name: string }[] = await db("attachments")
    .where({ tenant_id: tenantId, operation: "attachment" })
    .whereIn("requirement_id", requirementIds)
    .orderBy(["requirement_id", "created_at", "uuid_file_name"])
    .select("requirement_id", "uuid_file_name", "original_file_name");
  for (const row of rows) {
    const id = Number(row.requirement_id);
    attachments.set(id, [
      ...(attachments.get(id) ?? []),
      { uuid_file_name: row.uuid_file_name, original_file_name: row.original_file_name },
    ]);
  }
  return attachments;
}
