/** The user-chosen ID of a requirement, unique among the live ones of its project. */
import type { Db } from "../knex.js";
import { isUniqueViolationOf } from "../queryHelpers.js";

export async function isDisplayIdTaken(
  db: Db,
  tenantId: string,
  projectId: number,
  displayId: string,
  exceptRequirementId?: number,
): Promise<boolean> {
  const query = db("requirements").where({ tenant_id: tenantId, project_id: projectId, display_id: displayId }).whereNull("deleted_at");
  if (exceptRequirementId !== undefined) query.whereNot("requirement_id", exceptRequirementId);
  return (await query.first("requirement_id")) !== undefined;
}

/** Which of these IDs live requirements of the project hold, each with its holder: one statement for a whole file's IDs. */
export async function displayIdHolders(db: Db, tenantId: string, projectId: number, displayIds: string[]): Promise<Map<string, number>> {
  if (displayIds.length === 0) return new Map();
  const { rows } = await db.raw(
    `SELECT display_id, requirement_id FROM requirements
     WHERE tenant_id = ? AND project_id = ? AND deleted_at IS NULL AND display_id = ANY(?::text[])`,
    [tenantId, projectId, displayIds],
  );
  return new Map(
    (rows as { display_id: string; requirement_id: string | number }[]).map((row) => [row.display_id, Number(row.requirement_id)]),
  );
}

/** A custom ID the project's active requirements already use (requirements_display_id_unique, migration 0001). */
export function isDisplayIdUniqueViolation(error: unknown): boolean {
  return isUniqueViolationOf(error, "requirements_display_id_unique");
}
