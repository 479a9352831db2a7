import { filterWords, MATRIX_HEADER_ROW } from "../../../common/schemas/matrix.js";
import { matrixWindowJson } from "../../db/matrixStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";

/**
 * `GET /api/requirement/matrix` as JSON text: one window of rows, filtered by the database, and
 * the rows' text comes from PostgreSQL already serialised (no parse/serialise round in Node).
 */
export async function readMatrixJson(
  deps: ServiceDeps,
  actor: Actor,
  query: { projectId: number; offset: number; limit: number; filter?: string | undefined; suspect?: boolean },
): Promise<string> {
  const [window, requirementTypes] = await Promise.all([
    matrixWindowJson(deps.db, actor.tenantId, query.projectId, {
      offset: query.offset,
      limit: query.limit,
      words: filterWords(query.filter),
      suspect: query.suspect ?? false,
    }),
    listRequirementTypes(deps.db, actor.tenantId),
  ]);
  return `{"rows":${window.rows},"requirement_types":${JSON.stringify(requirementTypes)},"header_row":${JSON.stringify(MATRIX_HEADER_ROW)},"total_rows":${window.totalRows}}`;
}
