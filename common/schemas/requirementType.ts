import { z } from "zod";
import { pageFields, pageQuerySchema } from "./paging.js";
import { textError } from "./item.js";

export const REQUIREMENT_TYPE_NAME_MAX = 100;
export const REQUIREMENT_TYPE_PREFIX_MAX = 10;

export const RequirementTypeSchema = z.object({
  requirement_type_id: z.number(),
  name: z.string(),
  prefix: z.string(),
  level: z.number(),
  /** Spec section 5: "Update sends a level for editable types only"; the default types keep their levels. */
  level_editable: z.boolean(),
});
export type RequirementType = z.infer<typeof RequirementTypeSchema>;

export const RequirementTypesResponseSchema = z.object({ requirement_types: z.array(RequirementTypeSchema), ...pageFields });
/** GET /api/requirement/type: types a page holds at most (also the default): every site's few types fit one page. */
export const REQUIREMENT_TYPE_PAGE_MAX = 1000;
export const RequirementTypesQuerySchema = pageQuerySchema(REQUIREMENT_TYPE_PAGE_MAX, REQUIREMENT_TYPE_PAGE_MAX);

const requiredText = (max: number) =>
  z.string({ error: textError }).trim().min(1, "Required").max(max, `Enter no more than ${max} characters`);

export const requirementLevelSchema = z.coerce
  .number({ error: "Level must be a number" })
  .int("Level must be a whole number")
  .min(1, "Level must be between 1 and 99")
  .max(99, "Level must be between 1 and 99");

/** POST /api/requirement/type. A level may be given; without one the type starts at level 1. */
export const CreateRequirementTypeSchema = z.object({
  name: requiredText(REQUIREMENT_TYPE_NAME_MAX),
  prefix: requiredText(REQUIREMENT_TYPE_PREFIX_MAX),
  level: requirementLevelSchema.optional(),
});
export type CreateRequirementTypeInput = z.input<typeof CreateRequirementTypeSchema>;

/** PUT /api/requirement/type/{id}. */
export const UpdateRequirementTypeSchema = CreateRequirementTypeSchema;
export type UpdateRequirementTypeInput = z.input<typeof UpdateRequirementTypeSchema>;

/**
 * The spec writes the body as `requirement_type{name, prefix}`: both the wrapped form
 * `{"requirement_type": {...}}` and the bare object are accepted.
 */
export function unwrapRequirementTypeBody(body: unknown): unknown {
  if (body && typeof body === "object" && "requirement_type" in body) {
    const inner = (body as { requirement_type: unknown }).requirement_type;
    if (inner && typeof inner === "object") return inner;
  }
  return body;
}
