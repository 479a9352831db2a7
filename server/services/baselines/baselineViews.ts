import type { Baseline, BaselineRevision } from "../../../common/schemas/baseline.js";
import type { BaselineRow, FrozenRevision } from "../../db/baselineStore.js";
import { findBaseline } from "../../db/baselineStore.js";
import type { Db } from "../../db/knex.js";
import { notFound } from "../../errors.js";

export function baselineOf(row: BaselineRow): Baseline {
  return {
    baseline_id: row.baseline_id,
    name: row.name,
    description: row.description,
    created_at: row.created_at.toISOString(),
    created_by: { account_id: row.created_by },
    project: row.project_id,
    requirement_count: row.requirement_count,
  };
}

/** The fields of spec section 3 out of a frozen snapshot (plus the type, so a comparison can name it). */
export function baselineRevisionOf({ revision, snapshot }: FrozenRevision): BaselineRevision {
  const { attributes: _attributes, parent_folder_id: _folder, project: _project, deleted: _deleted, ...frozen } = snapshot;
  return { ...frozen, revision };
}

/**
 * A baseline of the tenant, and of the project when one is named; anything else reads as absent
 * (404), so another site's or project's baseline is never revealed.
 */
export async function baselineInScope(
  db: Db,
  tenantId: string,
  baselineId: number,
  projectId: number | undefined,
): Promise<BaselineRow> {
  const row = await findBaseline(db, tenantId, baselineId);
  if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFound("Baseline");
  return row;
}
