/**
 * What leaves the process in an error report (Sentry, server and browser): never a token, a Connect
 * JWT, an Authorization header, an e-mail address or a requirement's text. Reports keep the error,
 * its stack and where it happened; anything that could carry a user's content goes.
 */

/** The page's `<meta>` naming the browser's DSN, written by the server only when SENTRY_CLIENT_DSN is set. */
export const SENTRY_DSN_META = "rmcloud-sentry-dsn";

const FILTERED = "[Filtered]";

/** Keys whose value is a secret, personal, or a requirement's own words, wherever they appear. */
const SENSITIVE_KEY =
  /^(authorization|cookie|set-cookie|x-[\w-]*token|token|access_token|app_token|jwt|password|secret|shared_?secret|email|e-mail|to|from|name|description|display_id|text|body|request_body|response_body|input|summary|contents?|comment|ip_address|username)$/i;

/** Parts of an event that describe the software, not the user: their strings are scrubbed, their keys kept. */
const DESCRIPTIVE = new Set(["sdk", "contexts", "exception", "threads", "debug_meta", "modules"]);

const STRING_RULES: [RegExp, string][] = [
  // A JWT anywhere (Connect's and our app token): three base64url parts, the first a JSON header.
  [/eyJ[\w-]*\.[\w-]+\.[\w-]*/g, FILTERED],
  [/\b(Bearer|JWT|Basic)\s+[\w.~+/=-]+/gi, `$1 ${FILTERED}`],
  [/([?&#](?:jwt|token|access_token|app_token|signature|X-Amz-Signature|X-Amz-Credential)=)[^&#\s"']+/gi, `$1${FILTERED}`],
  [/[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g, "[email]"],
];

export function scrubString(value: string): string {
  return STRING_RULES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
}

/** A deep copy with every string scrubbed and, unless `keepKeys`, sensitive keys filtered. */
function scrubValue(value: unknown, keepKeys = false, depth = 0): unknown {
  if (typeof value === "string") return scrubString(value);
  if (value === null || typeof value !== "object" || depth > 12) return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, keepKeys, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      key,
      !keepKeys && SENSITIVE_KEY.test(key) && item !== null && item !== undefined
        ? FILTERED
        : scrubValue(item, keepKeys || (depth === 0 && DESCRIPTIVE.has(key)), depth + 1),
    ]),
  );
}

type Reportable = {
  request?: { data?: unknown; cookies?: unknown; [key: string]: unknown };
  user?: { id?: unknown; [key: string]: unknown };
  [key: string]: unknown;
};

/** For Sentry's `beforeSend`: the request's body and cookies go, the user keeps only an opaque id. */
export function scrubEvent<E extends object>(event: E): E {
  const { request, user, ...rest } = event as Reportable;
  const scrubbed = scrubValue(rest) as Reportable;
  if (request) {
    const { data: _data, cookies: _cookies, ...kept } = request;
    scrubbed.request = scrubValue(kept) as Reportable["request"];
  }
  if (user && typeof user.id === "string") scrubbed.user = { id: user.id };
  return scrubbed as E;
}

/** For Sentry's `beforeBreadcrumb`: the trail keeps what happened (URLs, statuses), never bodies or tokens. */
export function scrubBreadcrumb<B extends object>(breadcrumb: B): B {
  return scrubValue(breadcrumb) as B;
}
