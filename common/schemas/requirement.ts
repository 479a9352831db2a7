import { z } from "zod";
import { pageFields, pageQuerySchema } from "./paging.js";
import {
  hostIdSchema,
  hostRefSchema,
  numericIdSchema,
  parentFolderChangeSchema,
  parentFolderIdSchema,
  parentFolderTargetSchema,
  projectParamSchema,
  RequirementListItemSchema,
  requirementRefSchema,
  textError,
} from "./item.js";
import { SuspectLinkSchema } from "./suspectLinks.js";

export const REQUIREMENT_NAME_MAX = 255;
export const DISPLAY_ID_MAX = 50;
/** Spec section 9. */
export const MAX_LINKED_CONTENTS = 20;
/** The spec's rule 'Linked wiki content max 20 items', as the message every path that adds links answers. */
export const CONTENT_LIMIT_MESSAGE = `Linked wiki content max ${MAX_LINKED_CONTENTS} items`;

export const RequirementTypeRefSchema = z.object({
  requirement_type_id: z.number(),
  name: z.string(),
  prefix: z.string(),
  level: z.number(),
});

export const LinkedRequirementSchema = z.object({
  requirement_id: z.number(),
  prefix: z.string(),
  display_id: z.string().nullable(),
  name: z.string(),
  project: z.number(),
  requirement_type_id: z.number(),
  level: z.number(),
  /** Of a project the person may not browse: shown as "Restricted requirement", with nothing of what it says. */
  restricted: z.literal(true).optional(),
});
export type LinkedRequirement = z.infer<typeof LinkedRequirementSchema>;

export const AttachmentSchema = z.object({
  original_file_name: z.string(),
  uuid_file_name: z.string(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** GET/POST/PUT/PATCH /api/requirement/{id}. */
export const RequirementDetailSchema = z.object({
  requirement_id: z.number(),
  display_id: z.string().nullable(),
  prefix: z.string(),
  name: z.string(),
  description: z.string(),
  requirement_type: RequirementTypeRefSchema,
  /** UTC, ISO 8601. */
  created_at: z.string(),
  created_by: z.object({ account_id: z.string() }),
  assigned_to: z.object({ account_id: z.string() }).nullable(),
  status: z.object({ atlassian_status_id: z.string() }).nullable(),
  components: z.array(z.object({ atlassian_component_id: z.string() })),
  issues: z.array(z.object({ atlassian_issue_id: z.string() })),
  contents: z.array(z.object({ atlassian_content_id: z.string() })),
  linked_requirements_v2: z.array(LinkedRequirementSchema),
  /** attribute_id (as a string key) to value; a select value is the chosen option's id. */
  attributes: z.record(z.string(), z.string()),
  attachments: z.array(AttachmentSchema),
  parent_folder_id: z.number().nullable(),
  project: z.number(),
  /** The edit form sends this back in PUT; a newer one on the server means someone else saved in between (409). */
  revision: z.number(),
  /** Issue 34: its links whose requirement changed since they were last reviewed. */
  suspect_links: z.array(SuspectLinkSchema),
});
export type RequirementDetail = z.infer<typeof RequirementDetailSchema>;

/** GET /api/requirement, GET /api/requirement/lite, POST /api/requirement/by-id/lite: the tree item plus what pickers need. */
export const RequirementLiteSchema = RequirementListItemSchema.extend({
  /** Only when asked for (`with_description`): descriptions are most of a list's weight. */
  description: z.string().optional(),
  project: z.number(),
  requirement_type_id: z.number(),
  level: z.number(),
  /** Issue 34: whether any of its links is suspect. */
  has_suspect_links: z.boolean(),
  /** Listed by issue (atlassian_issue_id): whether its link to that issue is suspect. */
  issue_link_suspect: z.boolean().optional(),
});
export type RequirementLite = z.infer<typeof RequirementLiteSchema>;
export const RequirementsResponseSchema = z.object({
  requirements: z.array(RequirementLiteSchema),
  /** On the paged lists (GET /api/requirement and /lite): the page answered, and whether another follows. */
  offset: z.number().optional(),
  limit: z.number().optional(),
  has_more: z.boolean().optional(),
});

/** The most requirements one page of GET /api/requirement or /lite holds (also its default). */
export const REQUIREMENT_LIST_LIMIT_MAX = 1000;
/** A query parameter that is "true" or "false"; absent is false. */
export const flagParamSchema = z
  .enum(["true", "false"], { error: "Must be true or false" })
  .optional()
  .transform((value) => value === "true");
const requirementListPage = {
  offset: numericIdSchema.optional().transform((value) => value ?? 0),
  limit: numericIdSchema
    .pipe(z.number().min(1, "Must be at least 1").max(REQUIREMENT_LIST_LIMIT_MAX, `At most ${REQUIREMENT_LIST_LIMIT_MAX}`))
    .optional()
    .transform((value) => value ?? REQUIREMENT_LIST_LIMIT_MAX),
  with_description: flagParamSchema,
};

/**
 * What a revision freezes: everything a baseline shows and compares (spec sections 3 and 9),
 * in the detail's own shapes, so a deleted requirement stays readable.
 */
export const RequirementSnapshotSchema = z.object({
  requirement_id: z.number(),
  prefix: z.string(),
  display_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  assigned_to: z.object({ account_id: z.string() }).nullable(),
  components: z.array(z.object({ atlassian_component_id: z.string() })),
  issues: z.array(z.object({ atlassian_issue_id: z.string() })),
  status: z.object({ atlassian_status_id: z.string() }).nullable(),
  contents: z.array(z.object({ atlassian_content_id: z.string() })),
  requirement_type_id: z.number(),
  requirement_type: RequirementTypeRefSchema,
  linked_requirements: z.array(LinkedRequirementSchema),
  attachments: z.array(AttachmentSchema),
  attributes: z.record(z.string(), z.string()),
  parent_folder_id: z.number().nullable(),
  project: z.number(),
  deleted: z.boolean(),
});
export type RequirementSnapshot = z.infer<typeof RequirementSnapshotSchema>;

/**
 * The change that made a link suspect: the requirement that changed (this one or, for a
 * requirement link, the other end), as it was before `since_revision` (null when it was created
 * there) and as it is now.
 */
export const SuspectChangeSchema = z.object({
  requirement_id: z.number(),
  since_revision: z.number(),
  before: RequirementSnapshotSchema.nullable(),
  after: RequirementSnapshotSchema,
});
export type SuspectChange = z.infer<typeof SuspectChangeSchema>;

export const REVISION_ACTIONS = ["created", "updated", "moved", "deleted"] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

/** An Activity line that is no revision: someone marked a suspect link reviewed (issue 34). */
export const REVIEWED_ACTION = "reviewed";

/**
 * One line of the Activity list (GET /api/requirement/{id}/revision, newest first): a revision, or
 * a review of a suspect link (`reviewed`, at the revision the requirement had then, naming the link).
 */
export const RevisionSchema = z.object({
  revision: z.number(),
  created_at: z.string(),
  account_id: z.string(),
  action: z.enum([...REVISION_ACTIONS, REVIEWED_ACTION]),
  /** Comma-separated field names, e.g. "name,description". */
  changed_fields: z.string(),
  reviewed_link: SuspectLinkSchema.pick({ link_type: true, target_id: true }).optional(),
});
export type Revision = z.infer<typeof RevisionSchema>;
export const RevisionsResponseSchema = z.object({ revisions: z.array(RevisionSchema), ...pageFields });
/** GET /api/requirement/{id}/revision: revisions a page holds at most (also the default). */
export const REVISION_PAGE_MAX = 200;
export const RevisionsQuerySchema = pageQuerySchema(REVISION_PAGE_MAX, REVISION_PAGE_MAX);

const requirementNameSchema = z
  .string({ error: textError })
  .trim()
  .min(1, "Required")
  .max(REQUIREMENT_NAME_MAX, `Enter no more than ${REQUIREMENT_NAME_MAX} characters`);

/** Empty means "no custom ID": the label then uses the numeric id. */
const displayIdSchema = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : String(value).trim() || null))
  .refine((value) => value === null || value.length <= DISPLAY_ID_MAX, `Enter no more than ${DISPLAY_ID_MAX} characters`);

const accountRefSchema = z
  .union([z.null(), z.literal(""), hostRefSchema("account_id")])
  .transform((value) => (value === "" ? null : value));
const statusRefSchema = z
  .union([z.null(), z.literal(""), hostRefSchema("atlassian_status_id")])
  .transform((value) => (value === "" ? null : value));
const attributesSchema = z.record(
  z.string().regex(/^\d+$/, "Unknown custom field"),
  z.union([z.null(), z.string(), z.number()]).transform((value) => (value === null ? null : String(value).trim())),
);
const attachmentsSchema = z.array(
  z.object({
    original_file_name: z.string().trim().min(1, "Required").max(255),
    uuid_file_name: z.string().trim().min(1, "Required").max(255),
  }),
);

const descriptionSchema = z
  .string()
  .max(100_000, "Enter no more than 100000 characters")
  .nullish()
  .transform((value) => value ?? "");

/**
 * POST /api/requirement. Host references (assignee, status, components, issues, contents) may be
 * sent bare ("10001") or as the objects the detail returns; linked requirements as ids or {requirement_id}.
 */
export const CreateRequirementSchema = z.object({
  name: requirementNameSchema,
  requirement_type_id: numericIdSchema,
  project: projectParamSchema,
  parent_folder_id: parentFolderIdSchema,
  display_id: displayIdSchema,
  description: descriptionSchema,
  assigned_to: accountRefSchema.optional().transform((value) => value ?? null),
  status: statusRefSchema.optional().transform((value) => value ?? null),
  components: z.array(hostRefSchema("atlassian_component_id")).max(1000).default([]),
  issues: z.array(hostRefSchema("atlassian_issue_id")).max(5000).default([]),
  contents: z.array(hostRefSchema("atlassian_content_id")).max(MAX_LINKED_CONTENTS, CONTENT_LIMIT_MESSAGE).default([]),
  requirements: z.array(requirementRefSchema).max(5000).default([]),
  attributes: attributesSchema.default({}),
});
export type CreateRequirementInput = z.input<typeof CreateRequirementSchema>;
export type CreateRequirementValues = z.output<typeof CreateRequirementSchema>;

/** PUT /api/requirement/{id}: absent fields stay as they are; `revision` is the one the form started from. */
export const UpdateRequirementSchema = z.object({
  name: requirementNameSchema,
  requirement_type_id: numericIdSchema.optional(),
  parent_folder_id: parentFolderChangeSchema,
  display_id: displayIdSchema.optional(),
  description: z.string().max(100_000, "Enter no more than 100000 characters").nullish(),
  assigned_to: accountRefSchema.optional(),
  status: statusRefSchema.optional(),
  components: z.array(hostRefSchema("atlassian_component_id")).max(1000).optional(),
  issues: z.array(hostRefSchema("atlassian_issue_id")).max(5000).optional(),
  contents: z.array(hostRefSchema("atlassian_content_id")).max(MAX_LINKED_CONTENTS, CONTENT_LIMIT_MESSAGE).optional(),
  linked_requirements: z.array(requirementRefSchema).max(5000).optional(),
  attributes: attributesSchema.optional(),
  attachments: attachmentsSchema.optional(),
  revision: numericIdSchema.optional(),
});
export type UpdateRequirementInput = z.input<typeof UpdateRequirementSchema>;
export type UpdateRequirementValues = z.output<typeof UpdateRequirementSchema>;

/**
 * PATCH /api/requirement/{id}: the whole new attachment list (add and delete both send it), and the
 * revision it was built from (a stale one gets 409, as on PUT).
 */
export const PatchRequirementSchema = z.object({ attachments: attachmentsSchema, revision: numericIdSchema.optional() });

export const RequirementIdsSchema = z.object({
  requirementIds: z.array(numericIdSchema, { error: "Required" }).max(20_000),
});
/** POST /api/requirement/by-id/lite: the named requirements, with their descriptions when asked for. */
export const LitesByIdSchema = RequirementIdsSchema.extend({ with_description: z.boolean({ error: "Must be true or false" }).optional() });
export const BulkDeleteSchema = z.object({
  requirements: z.array(numericIdSchema, { error: "Required" }).min(1, "Select at least one requirement").max(20_000),
});
export const BulkMoveSchema = z.object({
  parent_folder_id: parentFolderTargetSchema,
  requirements: z.array(numericIdSchema, { error: "Required" }).min(1, "Select at least one requirement").max(20_000),
});

export const RequirementsQuerySchema = z.object({
  atlassian_project_id: z
    .union([projectParamSchema, z.array(projectParamSchema)], { error: "Required" })
    .transform((value) => (Array.isArray(value) ? value : [value])),
  atlassian_issue_id: hostIdSchema.optional(),
  /** Issue 34: only requirements with a suspect link. */
  suspect: flagParamSchema,
  ...requirementListPage,
});
/** Both filters are optional (spec section 7): without either, the pages of the site the person may browse. */
export const LiteQuerySchema = z.object({
  atlassian_project_id: z
    .union([projectParamSchema, z.array(projectParamSchema)])
    .optional()
    .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value])),
  atlassian_content_id: hostIdSchema.optional(),
  ...requirementListPage,
});

/** POST /api/requirement/display_ids answers requirement id (as a string key) to its ID label, e.g. {"12": "SYS-12"}. */
export const DisplayIdsResponseSchema = z.record(z.string(), z.string());
