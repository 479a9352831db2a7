/** The user-chosen ID of a requirement, unique among the live ones of its project. */
import type { Db } from "./knex.js";

export async function isDisplayIdTaken(
  db: Db,
  tenantId: string,
  projectId: number,
  displayId: string,
  exceptRequirementId?: number,
): Promise<boolean> {
  const query = db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId, display_id: displayId })
    .whereNull("deleted_at");
  if (exceptRequirementId !== undefined) query.whereNot("requirement_id", exceptRequirementId);
  return (await query.first("requirement_id")) !== undefined;
}
