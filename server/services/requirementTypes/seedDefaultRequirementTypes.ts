import type { Knex } from "knex";
import { countRequirementTypesEver, insertRequirementTypes } from "../../db/requirementTypeStore.js";

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
export async function seedDefaultRequirementTypes(db: Knex, tenantId: string): Promise<void> {
  if ((await countRequirementTypesEver(db, tenantId)) > 0) return;
  await insertRequirementTypes(
    db,
    tenantId,
    DEFAULT_REQUIREMENT_TYPES.map((type) => ({ ...type, levelEditable: false })),
  );
}
