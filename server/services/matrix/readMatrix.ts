import { MATRIX_HEADER_ROW } from "../../../common/schemas/matrix.js";
import { matrixRowsJson } from "../../db/matrixStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { listRequirementTypes } from "../requirementTypes/manageRequirementTypes.js";

/**
 * `GET /api/requirement/matrix` as JSON text: the rows come from PostgreSQL already serialised
 * (10,000 rows and 50,000 links are megabytes that Node would otherwise parse and serialise again).
 */
export async function readMatrixJson(deps: ServiceDeps, actor: Actor, projectId: number): Promise<string> {
  const [rows, requirementTypes] = await Promise.all([
    matrixRowsJson(deps.db, actor.tenantId, projectId),
    listRequirementTypes(deps, actor),
  ]);
  return `{"rows":${rows},"requirement_types":${JSON.stringify(requirementTypes)},"header_row":${JSON.stringify(MATRIX_HEADER_ROW)}}`;
}
