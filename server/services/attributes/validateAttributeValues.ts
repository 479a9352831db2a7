import { MAX_ATTRIBUTE_VALUE_LENGTH } from "../../../common/schemas/attribute.js";
import { listAttributes } from "../../db/attributeStore.js";
import { fieldErrors } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * The `attributes` of a requirement save (spec section 3: attribute_id to value), checked against
 * the custom fields of the requirement's project. A select field stores the chosen option's
 * attribute_option_id as text. Empty values (null, "") mean "no value" and are left out of the
 * answer, which maps attribute_id to the value to store; clearing a field that was deleted
 * meanwhile is no error. Any problem is a 400 under `attributes`, all of them at once.
 */
export async function validateAttributeValues(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  values: Record<string, unknown> | null | undefined,
): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const entries = Object.entries(values ?? {}).filter(([, raw]) => raw !== null && raw !== undefined && raw !== "");
  if (entries.length === 0) return result;
  const fields = new Map((await listAttributes(deps.db, actor.tenantId, projectId)).map((field) => [field.attribute_id, field]));
  const problems: string[] = [];
  for (const [key, raw] of entries) {
    const field = /^\d+$/.test(key) ? fields.get(Number(key)) : undefined;
    if (!field) {
      problems.push(`Custom field ${key} does not exist in this project`);
      continue;
    }
    if (typeof raw !== "string" && typeof raw !== "number") {
      problems.push(`${field.name}: enter text`);
      continue;
    }
    const value = String(raw).trim();
    if (value === "") continue;
    if (field.type === "select") {
      if (!field.options.some((option) => String(option.attribute_option_id) === value)) {
        problems.push(`${field.name}: choose one of the field's options`);
        continue;
      }
    } else if (value.length > MAX_ATTRIBUTE_VALUE_LENGTH) {
      problems.push(`${field.name}: enter no more than ${MAX_ATTRIBUTE_VALUE_LENGTH} characters`);
      continue;
    }
    result[field.attribute_id] = value;
  }
  if (problems.length > 0) throw fieldErrors({ attributes: problems });
  return result;
}
