import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import type { AppDeps } from "../../deps.js";

export const docs: ApiRouteDoc[] = [];

export function router(_deps: AppDeps): Router {
  return Router();
}
