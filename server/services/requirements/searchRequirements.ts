import { requirementCategory } from "../../../common/labels.js";
import type { RequirementSearchHit, RequirementSearchQuery } from "../../../common/schemas/requirementSearch.js";
import { SEARCH_TIERS, type SearchHitRow, searchRequirements as findRequirements } from "../../db/requirements/index.js";
import { listRequirementTypes, type RequirementTypeRow } from "../../db/requirementTypeStore.js";
import { accessDepsOf, browsableOf, browsableProjectIds } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { highlightOf, searchTermsOf } from "./searchTerms.js";

/**
 * GET /api/requirement/search: the pickers' and the Requirements screen's search, in the projects
 * asked for or the whole site (`visibleProjects`).
 */
export async function searchRequirements(deps: ServiceDeps, actor: Actor, query: RequirementSearchQuery): Promise<RequirementSearchHit[]> {
  const types = await listRequirementTypes(deps.db, actor.tenantId);
  const projectIds = await visibleProjects(deps, actor, query.atlassian_project_id);
  if (projectIds.length === 0) return [];
  const levels = query.level;
  const typeIds = levels ? types.filter((type) => levels.includes(type.level)).map((type) => type.requirement_type_id) : undefined;
  const rows = await findRequirements(
    deps.db,
    actor.tenantId,
    { projectIds, ...(typeIds ? { typeIds } : {}) },
    searchTermsOf(query.q, types),
    query.limit,
  );
  const typeById = new Map(types.map((type) => [type.requirement_type_id, type]));
  return rows.flatMap((row) => {
    const type = typeById.get(row.requirement_type_id);
    return type ? [toHit(row, type)] : [];
  });
}

/** The projects searched: those asked for, else the whole site's, of which those the person may browse (services/access). */
async function visibleProjects(deps: ServiceDeps, actor: Actor, requested: number[] | undefined): Promise<number[]> {
  const access = accessDepsOf(deps);
  return requested ? browsableOf(access, actor, requested) : browsableProjectIds(access, actor);
}

function toHit(row: SearchHitRow, type: RequirementTypeRow): RequirementSearchHit {
  return {
    type: "requirement",
    requirement_id: row.requirement_id,
    display_id: row.display_id,
    prefix: type.prefix,
    name: row.name,
    category: requirementCategory(type.level),
    parent_folder_id: row.parent_folder_id,
    project: row.project_id,
    requirement_type_id: row.requirement_type_id,
    type_name: type.name,
    level: type.level,
    matched: matchedBy(row.tier),
    highlights: {
      name: row.name_marked ? highlightOf(row.name_marked) : [{ text: row.name, match: false }],
      description: row.description_marked ? highlightOf(row.description_marked) : null,
      field: row.field ? { attribute_id: row.field.attribute_id, name: row.field.name, value: highlightOf(row.field.value_marked) } : null,
    },
  };
}

function matchedBy(tier: number | null): RequirementSearchHit["matched"] {
  if (tier === null) return "none";
  if (tier >= SEARCH_TIERS.idPart) return "id";
  return tier === SEARCH_TIERS.words ? "text" : "field";
}
