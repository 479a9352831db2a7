import { type RequestHandler, Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../common/apiDoc.js";
import type { AppDeps } from "../deps.js";
import { requireAppToken } from "../middleware/auth.js";
import { noStore } from "../middleware/noStore.js";
import * as access from "./access/router.js";
import * as attributes from "./attributes/router.js";
import * as auth from "./auth/router.js";
import * as confluence from "./confluence/router.js";
import * as coverage from "./coverage/router.js";
import * as baselines from "./baselines/router.js";
import * as csv from "./csv/router.js";
import * as customerSettings from "./customerSettings/router.js";
import * as folders from "./folders/router.js";
import * as issues from "./issues/router.js";
import * as items from "./items/router.js";
import * as jobs from "./jobs/router.js";
import * as matrix from "./matrix/router.js";
import * as reqif from "./reqif/router.js";
import * as requirements from "./requirements/router.js";
import * as requirementTypes from "./requirementTypes/router.js";
import * as storage from "./storage/router.js";

type Feature = { docs: ApiRouteDoc[]; router: (deps: AppDeps) => Router };

/** Order matters only where paths overlap: /api/requirement/type before /api/requirement/:id. */
const features: Feature[] = [
  requirementTypes,
  matrix,
  folders,
  items,
  reqif,
  requirements,
  attributes,
  customerSettings,
  issues,
  storage,
  confluence,
  jobs,
  baselines,
  csv,
  access,
  coverage,
];

/** The token exchange is the one /api route that takes a Connect JWT instead of the app token. */
export function apiRouter(deps: AppDeps): Router {
  const api = Router();
  api.use("/api", noStore);
  api.use(auth.publicRouter(deps));
  api.get("/api/openapi.json", (_req, res) => {
    res.json(openApiDocument(deps.config.baseUrl));
  });
  api.use("/api", requireAppToken(deps.db, deps.config.appTokenSecret), deps.rateLimits.middleware);
  api.use(auth.router(deps));
  for (const feature of features) api.use(scoped(feature.router(deps)));
  return api;
}

/** The first two segments ("/api/requirement") of every route a feature serves; null when one is not literal. */
function prefixesOf(router: Router): Set<string> | null {
  const prefixes = new Set<string>();
  for (const layer of router.stack as { route?: { path?: unknown } }[]) {
    const path = layer.route?.path;
    if (typeof path !== "string") return null;
    const prefix = path.split("/", 3).join("/").toLowerCase();
    if (/[:*(?]/.test(prefix)) return null;
    prefixes.add(prefix);
  }
  return prefixes;
}

/**
 * A request enters only the features whose paths it names instead of testing every route of every
 * feature mounted before its own (Express matches paths case-insensitively, so does this).
 */
function scoped(router: Router): RequestHandler {
  const prefixes = prefixesOf(router);
  if (!prefixes) return router;
  return (req, res, next) => {
    if (prefixes.has(req.path.split("/", 3).join("/").toLowerCase())) router(req, res, next);
    else next();
  };
}

/** Every documented route, in the order the router matches them. */
export const apiDocs = (): ApiRouteDoc[] => [...auth.docs, ...features.flatMap((feature) => feature.docs)];

export function openApiDocument(baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of apiDocs()) {
    const openApiPath = doc.path.replace(/:(\w+)(\([^)]*\))?/g, "{$1}");
    const operation: Record<string, unknown> = {
      summary: doc.summary,
      security: doc.auth === false ? [{ connectJwt: [] }] : [{ appToken: [] }],
      responses: {
        "200": {
          description: "OK",
          ...(doc.response
            ? { content: { "application/json": { schema: z.toJSONSchema(doc.response, { unrepresentable: "any" }) } } }
            : {}),
        },
        default: { description: 'Error in the spec\'s format: {"Result": "..."} or {"field": ["..."]}' },
      },
    };
    if (doc.body) {
      operation.requestBody = {
        content: { "application/json": { schema: z.toJSONSchema(doc.body, { unrepresentable: "any", io: "input" }) } },
      };
    }
    if (doc.query) {
      operation.parameters = [{ name: "query", in: "query", schema: z.toJSONSchema(doc.query, { unrepresentable: "any", io: "input" }) }];
    }
    paths[openApiPath] = { ...paths[openApiPath], [doc.method]: operation };
  }
  return {
    openapi: "3.1.0",
    info: { title: "rmCloud API", version: "1" },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        appToken: { type: "http", scheme: "bearer" },
        connectJwt: { type: "apiKey", in: "header", name: "Authorization" },
      },
    },
    paths,
  };
}
