import type { ListedRequirement } from "../../api/requirements.js";
import type { RequirementType } from "../../api/requirementTypes.js";

/** Spec section 4: linked requirements are one level above or below; with no level, none. */
export function levelsAreAdjacent(chosen: number | null | undefined, candidate: number | null | undefined): boolean {
  if (chosen === null || chosen === undefined || candidate === null || candidate === undefined) return false;
  return Math.abs(chosen - candidate) === 1;
}

/** The requirements the link picker offers for a requirement of the chosen type. */
export function linkableRequirements(
  candidates: readonly ListedRequirement[],
  types: readonly RequirementType[],
  chosenTypeId: number | null,
  selfId?: number,
): ListedRequirement[] {
  const chosenLevel = types.find((type) => type.requirement_type_id === chosenTypeId)?.level;
  return candidates.filter(
    (candidate) => candidate.requirement_id !== selfId && levelsAreAdjacent(chosenLevel, candidate.level),
  );
}
