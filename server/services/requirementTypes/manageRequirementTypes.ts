import { type PageFields, type PageQuery, pageOf } from "../../../common/schemas/paging.js";
import type { RequirementType } from "../../../common/schemas/requirementType.js";
import {
  countActiveRequirementsOfType,
  findRequirementType,
  insertRequirementTypes,
  listRequirementTypes as storeListRequirementTypes,
  softDeleteRequirementType,
  typeHasLinkedRequirements,
  updateRequirementType as storeUpdateRequirementType,
} from "../../db/requirementTypeStore.js";
import { conflict, fieldError, notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/** GET /api/requirement/type: one page of the site's types, by level. */
export async function listRequirementTypes(
  deps: ServiceDeps,
  actor: Actor,
  page: PageQuery,
): Promise<{ requirement_types: RequirementType[] } & PageFields> {
  const { items, ...paging } = pageOf(await storeListRequirementTypes(deps.db, actor.tenantId, page), page);
  return { requirement_types: items, ...paging };
}

export async function createRequirementType(
  deps: ServiceDeps,
  actor: Actor,
  input: { name: string; prefix: string; level?: number | undefined },
): Promise<RequirementType> {
  const [type] = await insertRequirementTypes(deps.db, actor.tenantId, [
    { name: input.name, prefix: input.prefix, level: input.level ?? 1, levelEditable: true },
  ]);
  if (!type) throw notFound("Requirement type");
  return type;
}

/** A level moves only on editable types, and never under existing links (they would break the one-level rule). */
export async function updateRequirementType(
  deps: ServiceDeps,
  actor: Actor,
  requirementTypeId: number,
  input: { name: string; prefix: string; level?: number | undefined },
): Promise<RequirementType> {
  const { tenantId } = actor;
  return deps.db.transaction(async (trx) => {
    // Locked as a delete locks it: a save linking requirements of this type finishes first, so its links are counted below.
    const type = await findRequirementType(trx, tenantId, requirementTypeId, "update");
    if (!type) throw notFound("Requirement type");
    const level = input.level ?? type.level;
    if (level !== type.level) {
      if (!type.level_editable) throw fieldError("level", "The level of a default requirement type cannot change");
      if (await typeHasLinkedRequirements(trx, tenantId, requirementTypeId)) {
        throw fieldError("level", "The level cannot change while requirements of this type have linked requirements");
      }
    }
    const updated = await storeUpdateRequirementType(trx, tenantId, requirementTypeId, {
      name: input.name,
      prefix: input.prefix,
      level,
    });
    if (!updated) throw notFound("Requirement type");
    return updated;
  });
}

/** Spec section 5: allowed only while no active requirement has the type (deleted ones keep naming it). */
export async function deleteRequirementType(deps: ServiceDeps, actor: Actor, requirementTypeId: number): Promise<void> {
  const { tenantId } = actor;
  await deps.db.transaction(async (trx) => {
    const type = await findRequirementType(trx, tenantId, requirementTypeId, "update");
    if (!type) throw notFound("Requirement type");
    const inUse = await countActiveRequirementsOfType(trx, tenantId, requirementTypeId);
    if (inUse > 0) {
      throw conflict(
        `This requirement type cannot be deleted because ${inUse} ${inUse === 1 ? "requirement uses" : "requirements use"} it`,
      );
    }
    await softDeleteRequirementType(trx, tenantId, requirementTypeId);
  });
}
