import { z } from "zod";
import { numericIdSchema } from "./item.js";
import { MAX_LINKED_CONTENTS } from "./requirement.js";

export { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "./requirement.js";
/** Requirements one page may link with `PUT /api/confluence/content/{contentId}` (the page macro editor). */
export const MAX_REQUIREMENTS_PER_CONTENT = 20;
export const REQUIREMENTS_PER_CONTENT_MESSAGE = `Link no more than ${MAX_REQUIREMENTS_PER_CONTENT} requirements to a page`;
/** Content search reads at most this many pages per request, the most a requirement can link. */
export const MAX_CONTENT_SEARCH = 100;
/** The content picker's page size. */
export const MAX_PAGE_SEARCH_LIMIT = MAX_LINKED_CONTENTS;

/** Confluence content ids are numbers written as strings. */
export const contentIdSchema = z
  .union([z.string().trim(), z.number().int().nonnegative()], { error: "Must be a Confluence content id" })
  .transform(String)
  .pipe(z.string().regex(/^\d{1,20}$/, "Must be a Confluence content id"));

/** `PUT /api/confluence/content/{contentId}`: exactly the requirements linked to the page afterwards. */
export const ContentRequirementsBodySchema = z.object({
  requirements: z
    .array(
      z
        .union([numericIdSchema, z.object({ requirement_id: numericIdSchema })])
        .transform((v) => (typeof v === "number" ? v : v.requirement_id)),
    )
    .max(MAX_REQUIREMENTS_PER_CONTENT, REQUIREMENTS_PER_CONTENT_MESSAGE),
});
export const ContentRequirementsResponseSchema = z.object({ requirements: z.array(z.number()) });

/** `GET /api/confluence/content`: the site's linked pages, by content id. */
export const LinkedContentsQuerySchema = z.object({
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export const LinkedContentSchema = z.object({
  atlassian_content_id: z.string(),
  /** Active requirements linked to the page, by id. */
  requirements: z.array(z.number()),
});
export type LinkedContentEntry = z.infer<typeof LinkedContentSchema>;
export const LinkedContentsResponseSchema = z.object({
  results: z.array(LinkedContentSchema),
  start: z.number(),
  limit: z.number(),
  size: z.number(),
});

/** `POST /api/confluence/content/search`. */
export const ContentSearchBodySchema = z.object({
  contents: z
    .array(z.union([contentIdSchema, z.object({ atlassian_content_id: contentIdSchema }).transform((v) => v.atlassian_content_id)]))
    .max(MAX_CONTENT_SEARCH, `Ask for no more than ${MAX_CONTENT_SEARCH} contents`),
});

export const ContentSpaceSchema = z.object({ key: z.string(), name: z.string() });
export const ContributorSchema = z.object({ account_id: z.string(), display_name: z.string() });

/** A page as the detail and pickers show it. */
export const ContentDetailsSchema = z.object({
  atlassian_content_id: z.string(),
  title: z.string(),
  space: ContentSpaceSchema,
  /** UTC, ISO 8601: when the current version was saved. */
  last_updated: z.string().nullable(),
  contributors: z.array(ContributorSchema),
  /** Opens the page in Confluence. */
  url: z.string(),
});
export type ContentDetails = z.infer<typeof ContentDetailsSchema>;
export const ContentSearchResponseSchema = z.object({ results: z.array(ContentDetailsSchema) });

/** `GET /api/confluence/page-search`: the requirement form's content picker (CQL title search, paged). */
export const PageSearchQuerySchema = z.object({
  title: z.string().trim().max(200).default(""),
  start: z.coerce.number().int().min(0).max(10_000).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SEARCH_LIMIT).default(MAX_PAGE_SEARCH_LIMIT),
});
export const PageSearchResultSchema = z.object({ atlassian_content_id: z.string(), title: z.string(), space: ContentSpaceSchema });
export type PageSearchResult = z.infer<typeof PageSearchResultSchema>;
export const PageSearchResponseSchema = z.object({
  results: z.array(PageSearchResultSchema),
  start: z.number(),
  limit: z.number(),
  /** Where the next page starts; null on the last page. */
  next_start: z.number().nullable(),
});
export type PageSearchResponse = z.infer<typeof PageSearchResponseSchema>;

/** `GET /api/confluence/jira-project`: where links to global requirements open in Jira. */
export const JiraProjectResponseSchema = z.object({ atlassian_project_id: z.number().nullable() });
