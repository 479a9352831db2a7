import type { Attribute, CreateAttribute } from "../../../common/schemas/attribute.js";
import { attributeNameExists, findAttribute, insertAttribute, lockAttributeNames } from "../../db/attributeStore.js";
import { fieldError } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * Names are unique per project (case-insensitive) because CSV import maps columns to
 * custom fields by name. A string field keeps no options even if some were sent.
 */
export async function createAttribute(deps: ServiceDeps, actor: Actor, input: CreateAttribute): Promise<Attribute> {
  const { tenantId } = actor;
  return deps.db.transaction(async (trx) => {
    await lockAttributeNames(trx, tenantId, input.project);
    if (await attributeNameExists(trx, tenantId, input.project, input.name)) {
      throw fieldError("name", "A custom field with this name already exists in this project");
    }
    const attributeId = await insertAttribute(trx, tenantId, {
      projectId: input.project,
      name: input.name,
      type: input.type,
      options: input.type === "select" ? input.options.map((option) => option.name) : [],
    });
    const attribute = await findAttribute(trx, tenantId, attributeId);
    if (!attribute) throw new Error(`Custom field ${attributeId} vanished inside its own transaction`);
    return attribute;
  });
}
