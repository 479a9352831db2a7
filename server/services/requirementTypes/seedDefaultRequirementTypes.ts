import { countRequirementTypesEver, insertRequirementTypes } from "../../db/requirementTypeStore.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * A V-model chain, so that a first requirement can be created and linked at once (docs/decisions.md).
 * Their levels are fixed (level_editable false); types an administrator adds choose their own.
 */
export const DEFAULT_REQUIREMENT_TYPES = [
  { name: "Business", prefix: "BR", level: 1 },
  { name: "Stakeholder", prefix: "SR", level: 2 },
  { name: "System", prefix: "SYS", level: 3 },
  { name: "Software", prefix: "SW", level: 4 },
] as const;

/** Gives a newly installed tenant the default requirement types (called once, when the tenant is created). */
export async function seedDefaultRequirementTypes(deps: ServiceDeps, actor: Actor): Promise<void> {
  if ((await countRequirementTypesEver(deps.db, actor.tenantId)) > 0) return;
  await insertRequirementTypes(
    deps.db,
    actor.tenantId,
    DEFAULT_REQUIREMENT_TYPES.map((type) => ({ ...type, levelEditable: false })),
  );
}
