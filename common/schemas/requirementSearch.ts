import { z } from "zod";
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from "../constants.js";
import { numericIdSchema, projectParamSchema, RequirementListItemSchema } from "./item.js";

const SEARCH_TEXT_MAX = 200;

const repeated = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .optional()
    .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]));

/**
 * GET /api/requirement/search. `q` is an ID ("SYS-12", "12", a custom ID or part of it) or words of
 * the name, description or a custom field's text, each word matched as a prefix; empty answers the
 * scope's first requirements (a picker's first page). Without `atlassian_project_id` the whole site.
 */
export const RequirementSearchQuerySchema = z.object({
  q: z
    .string({ error: "Must be text" })
    .max(SEARCH_TEXT_MAX, `Enter no more than ${SEARCH_TEXT_MAX} characters`)
    .optional()
    .transform((value) => (value ?? "").trim()),
  atlassian_project_id: repeated(projectParamSchema),
  /** Only requirements whose type has one of these levels (the link picker's one-level rule). */
  level: repeated(numericIdSchema),
  limit: numericIdSchema
    .pipe(z.number().min(1, "Must be at least 1").max(SEARCH_LIMIT_MAX, `At most ${SEARCH_LIMIT_MAX}`))
    .optional()
    .transform((value) => value ?? SEARCH_LIMIT_DEFAULT),
});
export type RequirementSearchQuery = z.output<typeof RequirementSearchQuerySchema>;

/** Text cut into runs, `match` on the words the search found (shown highlighted; never HTML). */
export const HighlightSchema = z.array(z.object({ text: z.string(), match: z.boolean() }));
export type Highlight = z.infer<typeof HighlightSchema>;

export const RequirementSearchHitSchema = RequirementListItemSchema.extend({
  project: z.number(),
  requirement_type_id: z.number(),
  type_name: z.string(),
  level: z.number(),
  /** Where the search found it: its ID, its own words (name, description) or a custom field's text. */
  matched: z.enum(["id", "text", "field", "none"]),
  highlights: z.object({
    name: HighlightSchema,
    /** A passage of the description around the found words; null when they are not in it. */
    description: HighlightSchema.nullable(),
    /** The custom field whose text holds the found words, when that is where they are. */
    field: z.object({ attribute_id: z.number(), name: z.string(), value: HighlightSchema }).nullable(),
  }),
});
export type RequirementSearchHit = z.infer<typeof RequirementSearchHitSchema>;
export const RequirementSearchResponseSchema = z.object({ requirements: z.array(RequirementSearchHitSchema) });
export type RequirementSearchResponse = z.infer<typeof RequirementSearchResponseSchema>;
