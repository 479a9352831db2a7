import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import type { AppDeps } from "../../deps.js";

export const docs: ApiRouteDoc[] = [];

/** Routes reached without an app token (the token exchange). */
export function publicRouter(_deps: AppDeps): Router {
  return Router();
}

export function router(_deps: AppDeps): Router {
  return Router();
}
