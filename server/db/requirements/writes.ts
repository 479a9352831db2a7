/** Writes of a requirement and of the rows hanging off it, and the lock they are made under. */
import type { Knex } from "knex";
import type { Tx } from "../knex.js";
import { type RequirementRow, selectRequirements, toRow } from "./rows.js";

/** A requirement's own columns as a save or an import gives them (the row's other columns are the database's). */
export type NewRequirement = Pick<
  RequirementRow,
  | "project_id"
  | "parent_folder_id"
  | "requirement_type_id"
  | "display_id"
  | "name"
  | "description"
  | "status_id"
  | "assigned_to"
  | "created_by"
>;

/**
 * The one way a requirement row is locked: live requirements by id, FOR UPDATE, in id order (two
 * writes locking overlapping sets take them in the same order), until the transaction ends.
 * Answers the live ones locked; a missing id is deleted or another site's.
 */
export async function lockRequirements(tx: Tx, tenantId: string, requirementIds: number[]): Promise<RequirementRow[]> {
  if (requirementIds.length === 0) return [];
  const rows = await selectRequirements(tx, tenantId)
    .whereIn("r.requirement_id", [...new Set(requirementIds)])
    .orderBy("r.requirement_id")
    .forUpdate("r");
  return rows.map(toRow);
}

export async function insertRequirement(tx: Tx, tenantId: string, requirement: NewRequirement): Promise<number> {
  const [row] = await tx("requirements")
    .insert({
      tenant_id: tenantId,
      project_id: requirement.project_id,
      parent_folder_id: requirement.parent_folder_id,
      requirement_type_id: requirement.requirement_type_id,
      display_id: requirement.display_id,
      name: requirement.name,
      description: requirement.description,
      status_id: requirement.status_id,
      assigned_to: requirement.assigned_to,
      created_by: requirement.created_by,
    })
    .returning("requirement_id");
  return Number(row.requirement_id);
}

export type RequirementChanges = Partial<{
  parent_folder_id: number | null;
  requirement_type_id: number;
  display_id: string | null;
  name: string;
  description: string;
  status_id: string | null;
  assigned_to: string | null;
}>;

/** Sets the same columns on one or many requirements (their revision moves on in withRequirementWrite). */
export async function setRequirementColumns(
  tx: Tx,
  tenantId: string,
  requirementIds: number[],
  changes: RequirementChanges & { deleted_at?: Knex.Raw },
): Promise<void> {
  if (requirementIds.length === 0 || Object.keys(changes).length === 0) return;
  await tx("requirements").where("tenant_id", tenantId).whereIn("requirement_id", requirementIds).update(changes);
}

/**
 * Moves each requirement's revision on by one (an edit form opened before sees its 409) and
 * answers the new revision by id: only withRequirementWrite calls it, once per write.
 */
export async function bumpRevisions(tx: Tx, tenantId: string, requirementIds: number[]): Promise<Map<number, number>> {
  if (requirementIds.length === 0) return new Map();
  const rows: { requirement_id: number; revision: number }[] = await tx("requirements")
    .where("tenant_id", tenantId)
    .whereIn("requirement_id", requirementIds)
    .update({ revision: tx.raw("revision + 1"), updated_at: tx.fn.now() })
    .returning(["requirement_id", "revision"]);
  return new Map(rows.map((row) => [Number(row.requirement_id), Number(row.revision)]));
}

async function replaceValues(
  tx: Tx,
  tenantId: string,
  table: string,
  column: string,
  requirementId: number,
  values: string[],
): Promise<void> {
  // Only what leaves the list goes: a link kept keeps its row, its created_at (the matrix's order)
  // and its suspect mark (issue 34), which the row's delete would take along.
  const unique = [...new Set(values)];
  await tx(table).where({ tenant_id: tenantId, requirement_id: requirementId }).whereNotIn(column, unique).delete();
  if (unique.length === 0) return;
  await tx(table)
    .insert(unique.map((value) => ({ tenant_id: tenantId, requirement_id: requirementId, [column]: value })))
    .onConflict(["tenant_id", "requirement_id", column])
    .ignore();
}

export const replaceComponents = (tx: Tx, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(tx, tenantId, "requirement_components", "atlassian_component_id", requirementId, ids);
export const replaceIssueLinks = (tx: Tx, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(tx, tenantId, "requirement_issue_links", "atlassian_issue_id", requirementId, ids);
export const replaceContentLinks = (tx: Tx, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(tx, tenantId, "requirement_content_links", "atlassian_content_id", requirementId, ids);

export async function replaceAttributeValues(
  tx: Tx,
  tenantId: string,
  requirementId: number,
  values: Record<string, string>,
): Promise<void> {
  await tx("requirement_attribute_values").where({ tenant_id: tenantId, requirement_id: requirementId }).delete();
  const rows = Object.entries(values).map(([attributeId, value]) => ({
    tenant_id: tenantId,
    requirement_id: requirementId,
    attribute_id: Number(attributeId),
    value,
  }));
  if (rows.length > 0) await tx("requirement_attribute_values").insert(rows);
}

/**
 * Attachment files already bound to another requirement (their names cannot be taken over). The
 * named files' rows stay locked until the save commits: two saves naming one new upload at the
 * same moment take turns, and the second finds it bound to the first.
 */
export async function attachmentsOwnedElsewhere(
  tx: Tx,
  tenantId: string,
  requirementId: number,
  uuidFileNames: string[],
): Promise<string[]> {
  if (uuidFileNames.length === 0) return [];
  const rows: { uuid_file_name: string; requirement_id: number | string | null; operation: string }[] = await tx("attachments")
    .where("tenant_id", tenantId)
    .whereIn("uuid_file_name", uuidFileNames)
    .orderBy("uuid_file_name")
    .forUpdate()
    .select("uuid_file_name", "requirement_id", "operation");
  return rows
    .filter((row) => row.requirement_id !== null && (Number(row.requirement_id) !== requirementId || row.operation !== "attachment"))
    .map((row) => String(row.uuid_file_name));
}

export async function replaceAttachments(
  tx: Tx,
  tenantId: string,
  requirementId: number,
  attachments: { original_file_name: string; uuid_file_name: string }[],
  createdBy: string,
): Promise<void> {
  const keep = attachments.map((attachment) => attachment.uuid_file_name);
  // Taken off the list, not deleted: the requirement's history and its baselines still name the
  // file, and it still downloads from there (sign-s3-get finds it by this row).
  await tx("attachments")
    .where({ tenant_id: tenantId, requirement_id: requirementId, operation: "attachment" })
    .whereNotIn("uuid_file_name", keep)
    .update({ requirement_id: null });
  if (attachments.length === 0) return;
  await tx("attachments")
    .insert(
      attachments.map((attachment) => ({
        tenant_id: tenantId,
        uuid_file_name: attachment.uuid_file_name,
        original_file_name: attachment.original_file_name,
        requirement_id: requirementId,
        operation: "attachment",
        created_by: createdBy,
      })),
    )
    .onConflict(["tenant_id", "uuid_file_name"])
    .merge(["requirement_id", "original_file_name", "operation"]);
}
