import { deleteBaseline as deleteBaselineRow } from "../../db/baselineStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { baselineInScope } from "./baselineViews.js";

/** DELETE /api/baseline/{id}: the baseline and its pointers; the requirement revisions stay (history reads them). */
export async function deleteBaseline(deps: ServiceDeps, actor: Actor, baselineId: number): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await baselineInScope(trx, actor.tenantId, baselineId, undefined);
    await deleteBaselineRow(trx, actor.tenantId, baselineId);
  });
}
