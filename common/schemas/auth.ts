import { z } from "zod";
import { choiceSchema } from "./item.js";

export const ProductSchema = choiceSchema(["jira", "confluence"]);
export type ProductName = z.infer<typeof ProductSchema>;

/** POST /api/exchange-token: the iframe URL the host signed, so its qsh can be checked. */
export const ExchangeTokenBodySchema = z.object({
  fullPath: z.string({ error: "Must be the signed page's path and query" }).min(1, "Must be the signed page's path and query"),
  method: z.string({ error: "Must be an HTTP method" }).regex(/^[A-Za-z]+$/, "Must be an HTTP method"),
  product: ProductSchema,
});
export type ExchangeTokenBody = z.infer<typeof ExchangeTokenBodySchema>;

/** The answer of POST /api/exchange-token and GET /api/refresh: rmCloud's own token. */
export const TokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** GET /api/user (spec section 3, User). */
export const UserSchema = z.object({
  account_id: z.string(),
  installed_on_confluence: z.boolean(),
  /** The site's URL (the Jira base URL; Confluence lives under it at /wiki). */
  atlassian_base_url: z.string(),
});
export type User = z.infer<typeof UserSchema>;
