import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";

/**
 * How deep a JSON body may nest. Our own requests nest four levels at most, Jira's webhook bodies
 * somewhat more; JSON.parse of a body nested hundreds of thousands deep spends its CPU and then
 * fails, before any sign-in is asked for.
 */
export const MAX_JSON_DEPTH = 64;

/** Most bodies are a form's fields or a list of ids; the routes below carry more. */
const DEFAULT_LIMIT = "256kb";

/**
 * Routes whose bodies are larger by the spec's limits: a requirement's description (100,000
 * characters) with its 5,000 issue and requirement links, a baseline of up to 100,000 chosen
 * requirements, a Jira webhook. Files never come through here: uploads go to presigned storage URLs.
 */
const LARGER_BODIES: { method: string; path: RegExp; limit: string }[] = [
  { method: "POST", path: /^\/api\/requirement\/?$/i, limit: "1mb" },
  { method: "PUT", path: /^\/api\/requirement\/\d+\/?$/i, limit: "1mb" },
  { method: "POST", path: /^\/api\/baseline\/?$/i, limit: "2mb" },
  // Jira's webhooks carry the whole issue as Jira sends it.
  { method: "POST", path: /^\/webhooks\//i, limit: "2mb" },
];

/** body-parser's error `type` for a body refused by its nesting (errorHandler answers it). */
export const TOO_DEEP = "entity.too.deep";
export const TOO_DEEP_MESSAGE = `The request body nests deeper than ${MAX_JSON_DEPTH} levels`;

const BRACKET_OPEN = new Set([0x5b, 0x7b]);
const BRACKET_CLOSE = new Set([0x5d, 0x7d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Refuses a body nested deeper than MAX_JSON_DEPTH before it is parsed: one pass over its bytes
 * (brackets inside strings do not count; UTF-8 never puts these ASCII bytes inside a character).
 */
function refuseDeepNesting(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] as number;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (BRACKET_OPEN.has(byte)) {
      if (++depth > MAX_JSON_DEPTH) throw Object.assign(new Error(TOO_DEEP_MESSAGE), { status: 400, type: TOO_DEEP });
    } else if (BRACKET_CLOSE.has(byte)) depth--;
  }
}

/** JSON bodies with a size limit per route and a nesting limit, checked before parsing. */
export function jsonBodies(): RequestHandler {
  const parser = (limit: string) => express.json({ limit, verify: refuseDeepNesting });
  const standard = parser(DEFAULT_LIMIT);
  const larger = LARGER_BODIES.map((route) => ({ ...route, parse: parser(route.limit) }));
  return (req, res, next) => {
    const route = larger.find((candidate) => candidate.method === req.method && candidate.path.test(req.path));
    (route?.parse ?? standard)(req, res, next);
  };
}
