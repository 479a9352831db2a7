import { z } from "zod";
import { pageFields, pageQuerySchema } from "./paging.js";
import { choiceSchema, textError } from "./item.js";

/** Spec sections 5 and 9: a select field has 1 to 10 options of 1 to 75 characters. */
export const MAX_ATTRIBUTE_OPTIONS = 10;
export const MAX_ATTRIBUTE_OPTION_LENGTH = 75;
export const MAX_ATTRIBUTE_NAME_LENGTH = 255;
/** A text field's value, as a save and an import check it. */
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1000;

export const AttributeTypeSchema = choiceSchema(["string", "select"]);
export type AttributeType = z.infer<typeof AttributeTypeSchema>;

/** The labels the create form shows for each type (spec section 5). */
export const attributeTypeLabels: Record<AttributeType, string> = {
  string: "Standard field type",
  select: "Field with pre-defined options",
};

export const attributeNameSchema = z
  .string({ error: textError })
  .trim()
  .min(1, "Required")
  .max(MAX_ATTRIBUTE_NAME_LENGTH, `Enter no more than ${MAX_ATTRIBUTE_NAME_LENGTH} characters`);

export const attributeOptionNameSchema = z
  .string({ error: textError })
  .trim()
  .min(1, "Required")
  .max(MAX_ATTRIBUTE_OPTION_LENGTH, `Enter no more than ${MAX_ATTRIBUTE_OPTION_LENGTH} characters`);

/** Project 0 is the Global Requirements pseudo-project. */
export const projectIdSchema = z.union([z.number().int().min(0), z.string().regex(/^\d+$/).transform(Number)], {
  error: (issue) => (issue.input === undefined || issue.input === "" ? "Required" : "Must be a project id"),
});

/** POST /api/attribute, and the custom-field form that sends it. Options count only for select fields. */
export const CreateAttributeSchema = z
  .object({
    name: attributeNameSchema,
    project: projectIdSchema,
    type: AttributeTypeSchema,
    options: z.array(z.object({ name: attributeOptionNameSchema })).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.type !== "select") return;
    if (value.options.length === 0) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "Add at least one option" });
    }
    if (value.options.length > MAX_ATTRIBUTE_OPTIONS) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: `Enter no more than ${MAX_ATTRIBUTE_OPTIONS} options`,
      });
    }
    const seen = new Set<string>();
    value.options.forEach((option, index) => {
      const key = option.name.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({ code: "custom", path: ["options", index, "name"], message: "Options must be unique" });
      }
      seen.add(key);
    });
  });
export type CreateAttributeInput = z.input<typeof CreateAttributeSchema>;
export type CreateAttribute = z.output<typeof CreateAttributeSchema>;

/** GET /api/attribute: custom fields a page holds at most (also the default). */
export const ATTRIBUTE_PAGE_MAX = 1000;
export const AttributeListQuerySchema = z
  .object({ atlassian_project_id: projectIdSchema.optional() })
  .extend(pageQuerySchema(ATTRIBUTE_PAGE_MAX, ATTRIBUTE_PAGE_MAX).shape);

export const AttributeOptionSchema = z.object({
  attribute_option_id: z.number(),
  name: z.string(),
});
export type AttributeOption = z.infer<typeof AttributeOptionSchema>;

/** Spec section 3; `project` repeats the project id, as the request's field of that name carries it. */
export const AttributeSchema = z.object({
  attribute_id: z.number(),
  name: z.string(),
  type: AttributeTypeSchema,
  options: z.array(AttributeOptionSchema),
  atlassian_project_id: z.number(),
  project: z.number(),
});
export type Attribute = z.infer<typeof AttributeSchema>;

export const AttributeListSchema = z.object({ attributes: z.array(AttributeSchema), ...pageFields });
export type AttributeList = z.infer<typeof AttributeListSchema>;
