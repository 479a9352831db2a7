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
