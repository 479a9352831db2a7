import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { reportError } from "../errorReporting.js";
import { DATABASE_UNREACHABLE_MESSAGE, type DatabaseError, isDatabaseUnreachable } from "../db/queryHelpers.js";
import { AppError } from "../errors.js";
import { TOO_DEEP, TOO_DEEP_MESSAGE } from "./jsonBody.js";

const PG_UNIQUE_VIOLATION = "23505";
const PG_FOREIGN_KEY_VIOLATION = "23503";

/**
 * One place turns every failure into the spec's body, never with SQL or stacks in the answer. 5xx
 * are logged as errors; a unique or foreign-key violation that reached here (a race no service
 * turned into its own message) is logged as a warning with its constraint, so it can be found.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof AppError) {
      // A store or a host away (503): logged with what it said, which the answer leaves out.
      if (err.status >= 500) logger.warn({ err: err.cause ?? err, method: req.method, url: req.path }, err.message);
      res.status(err.status).json(err.body);
      return;
    }
    if (err?.type === "entity.parse.failed") {
      res.status(400).json({ Result: "The request body is not valid JSON" });
      return;
    }
    if (err?.type === TOO_DEEP) {
      res.status(400).json({ Result: TOO_DEEP_MESSAGE });
      return;
    }
    if (err?.type === "entity.too.large") {
      res.status(413).json({ Result: "The request body is too large" });
      return;
    }
    if (err?.code === PG_UNIQUE_VIOLATION || err?.code === PG_FOREIGN_KEY_VIOLATION) {
      const { code, constraint, table } = err as DatabaseError;
      logger.warn({ code, constraint, table, method: req.method, url: req.path }, "constraint violation answered as bad input");
      if (code === PG_UNIQUE_VIOLATION) res.status(409).json({ Result: "A record with the same unique value already exists" });
      else res.status(400).json({ Result: "A referenced record does not exist" });
      return;
    }
    if (isDatabaseUnreachable(err)) {
      // A restart or failover: the pool reconnects by itself, so the client may try again shortly.
      logger.warn({ err, method: req.method, url: req.path }, "database not reachable");
      res.status(503).set("Retry-After", "1").json({ Result: DATABASE_UNREACHABLE_MESSAGE });
      return;
    }
    logger.error({ err, method: req.method, url: req.path }, "request failed");
    reportError(err, { method: req.method, route: req.path });
    res.status(500).json({ Result: "Something went wrong on our side. Please try again." });
  };
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ Result: "Not found" });
};
