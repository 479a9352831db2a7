import type { RequirementType } from "../../api/requirementTypes.js";

/**
 * Spec section 4: a requirement links only to levels one above or one below its type's; with no
 * type or level, to none (null). The link picker searches those levels only.
 */
export function linkableLevels(types: readonly RequirementType[], chosenTypeId: number | null): number[] | null {
  const level = types.find((type) => type.requirement_type_id === chosenTypeId)?.level;
  return level === undefined ? null : [level - 1, level + 1];
}
