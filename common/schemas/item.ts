import { z } from "zod";

/**
 * Ids arrive as JSON numbers from our own forms and as numeric strings from query strings,
 * host pickers and CSV; both are accepted and come out as numbers. An empty string is what a form
 * or a query string sends for a choice not made: "Required", as for one left out.
 */
export const numericIdSchema = z
  .union([z.number(), z.string().trim().min(1, { error: "Required", abort: true }).regex(/^\d+$/, "Must be a number")], {
    error: "Required",
  })
  .transform(Number)
  .pipe(z.number().int("Must be a whole number").min(0, "Must be a whole number"));

/** One of fixed values: "Required" when it is missing, else the values it may be ("Must be string or select"). */
export const choiceSchema = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? "Required" : `Must be ${values.slice(0, -1).join(", ")} or ${values.at(-1)}`,
  });

/** A text field's type error: "Required" when it is missing, "Must be text" when it is anything but a string. */
export const textError = (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? "Required" : "Must be text");

/** A requirement sent as its id or as the object lists answer (`{"requirement_id": 12}`); comes out as the id. */
export const requirementRefSchema = z
  .union([numericIdSchema, z.object({ requirement_id: numericIdSchema })], { error: "Must be a number" })
  .transform((value) => (typeof value === "number" ? value : value.requirement_id));

/** Project 0 is Global Requirements. */
export const projectParamSchema = numericIdSchema;

/** A host id (issue, component, status, content, account): the host's own string, or a number we stringify. */
export const hostIdSchema = z.union([z.string().trim().min(1, "Required"), z.number().int()], { error: "Required" }).transform(String);

/** A host reference sent bare ("10001") or as the object the detail returns ({"atlassian_issue_id": "10001"}). */
export const hostRefSchema = <K extends string>(key: K) =>
  z
    .union([hostIdSchema, z.object({ [key]: hostIdSchema } as Record<K, typeof hostIdSchema>)])
    .transform((value) => (typeof value === "string" ? value : (value as Record<K, string>)[key]));

const parentFolderValueSchema = z
  .union([z.null(), z.literal(""), numericIdSchema], {
    error: (issue) => (issue.input === undefined ? "Required" : "Must be a folder id or null"),
  })
  .transform((value) => (value === "" || value === 0 ? null : value));

/** `parent_folder_id` of a new folder or requirement: null (or absent, 0, "") means the top level. */
export const parentFolderIdSchema = parentFolderValueSchema.optional().transform((value) => value ?? null);

/** `parent_folder_id` of a move: required (a move without a target is a mistake, not the top level); null, 0 or "" is the top level. */
export const parentFolderTargetSchema = parentFolderValueSchema;

/** `parent_folder_id` of an edit: absent keeps the parent, null (or 0, "") moves to the top level. */
export const parentFolderChangeSchema = parentFolderValueSchema.optional();

export type FolderItem = {
  folder_id: number;
  name: string;
  description: string;
  type: "folder";
  parent_folder_id: number | null;
  issues: { atlassian_issue_id: string }[];
  has_descendant_folders: boolean;
  has_descendant_requirements: boolean;
  /**
   * On a folder the request expanded, its direct children (expanded again where asked); empty on
   * every other folder, whose has_descendant_* flags say whether it has any.
   */
  descendants: Item[];
};

export const FolderItemSchema = z.object({
  folder_id: z.number(),
  name: z.string(),
  description: z.string(),
  type: z.literal("folder"),
  parent_folder_id: z.number().nullable(),
  issues: z.array(z.object({ atlassian_issue_id: z.string() })),
  has_descendant_folders: z.boolean(),
  has_descendant_requirements: z.boolean(),
  descendants: z.array(z.unknown()),
});

export const RequirementListItemSchema = z.object({
  type: z.literal("requirement"),
  requirement_id: z.number(),
  display_id: z.string().nullable(),
  prefix: z.string(),
  name: z.string(),
  category: z.enum(["LOW_LEVEL", "HIGH_LEVEL"]),
  parent_folder_id: z.number().nullable(),
});
export type RequirementListItem = z.infer<typeof RequirementListItemSchema>;

export type Item = FolderItem | RequirementListItem;
export const ItemSchema = z.union([FolderItemSchema, RequirementListItemSchema]);

/**
 * GET /api/item/primary and GET /api/item/{folderId}/descendant: a window of the level's items,
 * folders first (by name), then requirements (by id); `total_items` is how many the level holds.
 */
export const ItemsResponseSchema = z.object({ items: z.array(ItemSchema), total_items: z.number() });
export type ItemsResponse = { items: Item[]; total_items: number };

/**
 * GET /api/item/requirement/{id}/position and GET /api/item/folder/{id}/position: the item's
 * project and, from the top level down, each level on the way to it (`parent_folder_id`, null for
 * the top level) with the 0-based position there of the folder that leads on, the item's own last,
 * counted in the order the level's windows list it.
 */
export const ItemPositionSchema = z.object({
  project: z.number(),
  levels: z.array(z.object({ parent_folder_id: z.number().nullable(), position: z.number() })),
});
export type ItemPosition = z.infer<typeof ItemPositionSchema>;

/** Issue 37: a level of the tree comes a window at a time, at most this many items. */
export const ITEMS_MAX_LIMIT = 1000;

const wholeNumberParam = (fallback: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, "Must be a whole number")])
    .optional()
    .transform((value) => (value === undefined ? fallback : Number(value)))
    .pipe(z.number().int("Must be a whole number").min(0, "Must be a whole number"));

/** `limit` (1 to `max`, default `max` unless said) rows from `offset` (default 0): the window of a paged list. */
export const listWindowParams = (max: number, defaultLimit = max) => ({
  limit: wholeNumberParam(defaultLimit).pipe(z.number().min(1, "Must be at least 1").max(max, `Must be at most ${max}`)),
  offset: wholeNumberParam(0),
});

export const ItemsWindowQuerySchema = z.object({ atlassian_project_id: projectParamSchema, ...listWindowParams(ITEMS_MAX_LIMIT) });

export const ItemsQuerySchema = z.object({
  atlassian_project_id: projectParamSchema,
  ...listWindowParams(ITEMS_MAX_LIMIT),
  /** Open folders whose children come along, so a reload restores the tree in one call. */
  expand: z
    .union([numericIdSchema, z.array(numericIdSchema)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});
