import { z } from "zod";

/**
 * `offset` and `limit` of a paged list route (issue 37: no list answers without a bound): `limit`
 * defaults to `fallback` and is refused (400) above `max`.
 */
export const pageQuerySchema = (fallback: number, max: number) =>
  z.object({
    offset: z.coerce.number({ error: "Must be a number" }).int("Must be a whole number").min(0, "Must be at least 0").default(0),
    limit: z.coerce
      .number({ error: "Must be a number" })
      .int("Must be a whole number")
      .min(1, "Must be at least 1")
      .max(max, `Must be at most ${max}`)
      .default(fallback),
  });
export type PageQuery = { offset: number; limit: number };

/** What a paged answer adds to its list: the page it is, and whether another follows. */
export const pageFields = { offset: z.number(), limit: z.number(), has_more: z.boolean() };
export type PageFields = { offset: number; limit: number; has_more: boolean };

/** A store read `limit + 1` rows from `offset`: the page, and whether the extra row says another follows. */
export function pageOf<T>(rows: T[], page: PageQuery): { items: T[] } & PageFields {
  return { items: rows.slice(0, page.limit), offset: page.offset, limit: page.limit, has_more: rows.length > page.limit };
}
