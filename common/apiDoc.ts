import type { z } from "zod";

/** One endpoint of our API as the OpenAPI document at /api/openapi.json describes it. */
export type ApiRouteDoc = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path, e.g. /api/folder/:id */
  path: string;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** false only for the token exchange, which takes a Connect JWT instead of the app token. */
  auth?: boolean;
};
