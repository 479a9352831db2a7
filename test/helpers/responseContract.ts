import express, { type Express, type RequestHandler, Router } from "express";
import type { z } from "zod";
import { apiDocs } from "../../server/routes/index.js";

/** What a test sees instead of a successful body that drifted from /api/openapi.json. */
export const CONTRACT_BREACH = "The response does not match its published schema";

/**
 * Wraps the app so that every successful JSON answer of a documented route (its `docs` entry with a
 * `response`) is parsed with that schema. A body that drifts from the published contract turns into
 * a 500 naming the mismatch, so whatever the test asserts about it fails. Routes are matched by
 * Express itself, from the same docs the OpenAPI document is built from, so new routes are covered
 * as soon as they are documented.
 */
export function checkResponsesAgainstSchemas(app: Express): Express {
  const contracts = Router();
  for (const doc of apiDocs()) {
    const schema = doc.response;
    if (!schema) continue;
    contracts[doc.method](doc.path, (_req, res, next) => {
      // Overlapping paths (/api/requirement/type before /api/requirement/:id): the first match is the route.
      if (res.locals.responseSchema === undefined) res.locals.responseSchema = schema;
      next();
    });
  }
  const outer = express();
  outer.use(holdToContract);
  // A router answers OPTIONS itself for every path it knows: CORS preflights must reach the app.
  outer.use((req, res, next) => (req.method === "OPTIONS" ? next() : contracts(req, res, next)));
  outer.use(app);
  return outer;
}

const holdToContract: RequestHandler = (req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const schema = res.locals.responseSchema as z.ZodType | undefined;
    if (!schema || res.statusCode < 200 || res.statusCode >= 300) return json(body);
    const parsed = schema.safeParse(body);
    if (parsed.success) return json(body);
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
    res.status(500);
    return json({ Result: `${CONTRACT_BREACH} (${req.method} ${req.originalUrl}): ${issues.join("; ")}` });
  };
  next();
};
