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

/**
 * Holds `res.send`, which `res.json` also ends in, so a body a route sends as JSON text it built
 * itself (the traceability matrix, whose rows the database writes as JSON) is checked too.
 */
const holdToContract: RequestHandler = (req, res, next) => {
  const send = res.send.bind(res);
  res.send = (body: unknown) => {
    const schema = res.locals.responseSchema as z.ZodType | undefined;
    const isJson = /json/.test(String(res.get("Content-Type") ?? ""));
    if (!schema || !isJson || res.statusCode < 200 || res.statusCode >= 300) return send(body);
    const parsed = schema.safeParse(typeof body === "string" || Buffer.isBuffer(body) ? JSON.parse(String(body)) : body);
    if (parsed.success) return send(body);
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
    res.status(500);
    return send(JSON.stringify({ Result: `${CONTRACT_BREACH} (${req.method} ${req.originalUrl}): ${issues.join("; ")}` }));
  };
  next();
};
