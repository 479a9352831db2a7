import type { Baseline, BaselineRevision } from "../../../common/schemas/baseline.js";
import type { BaselineRow, FrozenRevision } from "../../db/baselineStore.js";
import { findBaseline } from "../../db/baselineStore.js";
import type { Db } from "../../db/knex.js";
import { notFound } from "../../errors.js";
import type { AccessDeps } from "../access/projectAccess.js";
import { withHiddenLinksRestricted } from "../access/restrictedRequirements.js";
import type { Actor } from "../context.js";

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
export function baselineRevisionOf({ revision, snapshot, suspectLinks }: FrozenRevision): BaselineRevision {
  const { attributes: _attributes, parent_folder_id: _folder, project: _project, deleted: _deleted, ...frozen } = snapshot;
  return { ...frozen, revision, suspect_links: suspectLinks };
}

/**
 * Frozen revisions as the person is shown them: requirements they link to in projects they may
 * not browse (a global requirement's links) shown restricted. Absent revisions stay absent.
 */
export async function revisionsShownTo(
  deps: AccessDeps,
  actor: Actor,
  revisions: readonly (BaselineRevision | null)[],
): Promise<(BaselineRevision | null)[]> {
  const present = revisions.filter((revision): revision is BaselineRevision => revision !== null);
  const linked = await withHiddenLinksRestricted(
    deps,
    actor,
    present.map((revision) => revision.linked_requirements),
  );
  const shown = new Map(present.map((revision, index) => [revision, { ...revision, linked_requirements: linked[index] ?? [] }]));
  return revisions.map((revision) => (revision === null ? null : (shown.get(revision) ?? revision)));
}

/**
 * A baseline of the tenant, and of the project when one is named; anything else reads as absent
 * (404), so another site's or project's baseline is never revealed.
 */
export async function baselineInScope(db: Db, tenantId: string, baselineId: number, projectId: number | undefined): Promise<BaselineRow> {
  const row = await findBaseline(db, tenantId, baselineId);
  if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFound("Baseline");
  return row;
}
