import type { RequestHandler } from "express";
import pino, { type Logger } from "pino";

/** Secrets and tokens never reach a log line, whatever logs them. */
export const REDACTED_PATHS = [
  "sharedSecret",
  "*.sharedSecret",
  "*.*.sharedSecret",
  "shared_secret",
  "*.shared_secret",
  "token",
  "*.token",
  "req.headers.authorization",
  "req.query.jwt",
  "headers.authorization",
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } });
}

/** A request slower than this is logged at warn whatever it answered. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * One line per request when it finishes: failures (5xx) at error, slow requests at warn, writes and
 * refused reads at info; fast successful reads at debug, because one JSON line for every read the
 * panels make costs more than the read itself. Per request it adds one listener and no child logger.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.url === "/healthz") {
      next();
      return;
    }
    const started = performance.now();
    res.once("close", () => {
      const responseTime = Math.round(performance.now() - started);
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const level =
        status >= 500
          ? "error"
          : responseTime >= SLOW_REQUEST_MS
            ? "warn"
            : aborted || status >= 400 || !isRead(req.method)
              ? "info"
              : "debug";
      if (!logger.isLevelEnabled(level)) return;
      const line = { req: { method: req.method, url: req.originalUrl.split("?")[0] }, res: { statusCode: status }, responseTime };
      logger[level](line, aborted ? "request aborted" : "request completed");
    });
    next();
  };
}

const isRead = (method: string) => method === "GET" || method === "HEAD";
