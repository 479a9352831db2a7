import { inspect } from "node:util";
import type { Logger } from "pino";

const SECRET_FIELD = /^(sharedSecret|shared_secret|publicKey|token|jwt|authorization)$/i;
const SECRET_ASSIGNMENT = /((?:sharedSecret|shared_secret|publicKey|token|jwt)["']?\s*[:=]\s*)(["'])[^"']*\2/gi;
const JWT_LIKE = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/g;

function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_FIELD.test(key) ? "[redacted]" : redactValue(item, depth + 1)]),
  );
}

/** One log message from ACE's console-style arguments, with secrets and JWTs blanked. */
export function redactAceMessage(args: unknown[]): string {
  return args
    .map((arg) => (typeof arg === "string" ? arg : inspect(redactValue(arg), { depth: 4, breakLength: Infinity })))
    .join(" ")
    .replace(SECRET_ASSIGNMENT, "$1$2[redacted]$2")
    .replace(JWT_LIKE, "[redacted jwt]");
}

export type AceLogger = Pick<Console, "info" | "warn" | "error">;

/**
 * ACE logs like console (and, outside production, the whole install payload); this routes its lines
 * into pino with every shared secret, key and token removed first.
 */
export function aceLogger(logger: Logger): AceLogger {
  const child = logger.child({ component: "atlassian-connect-express" });
  return {
    info: (...args: unknown[]) => child.info(redactAceMessage(args)),
    warn: (...args: unknown[]) => child.warn(redactAceMessage(args)),
    error: (...args: unknown[]) => child.error(redactAceMessage(args)),
  };
}
