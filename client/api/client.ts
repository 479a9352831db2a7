import { flattenErrorBody } from "../../common/errors.js";
import { pageStorage } from "./pageStorage.js";

/** Spec section 6: the app token lives under a product token name for the life of the tab. */
export const TOKEN_KEY = "rmcloud-token";
const PRODUCT_KEY = "rmcloud-product";

export type Product = "jira" | "confluence";

const session = () => pageStorage("sessionStorage");

export const tokenStore = {
  get: (): string | undefined => session().getItem(TOKEN_KEY) ?? undefined,
  set(token: string, product?: Product) {
    session().setItem(TOKEN_KEY, token);
    if (product) session().setItem(PRODUCT_KEY, product);
  },
  clear() {
    session().removeItem(TOKEN_KEY);
  },
  product: (): Product => (session().getItem(PRODUCT_KEY) === "confluence" ? "confluence" : "jira"),
};

/** A non-2xx answer of our API; `message` is the spec's flattened error text, ready for a toast. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(flattenErrorBody(body) || `The server answered ${status}`);
    this.name = "ApiError";
  }
}

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/** Arrays become repeated keys (`expand=1&expand=2`), as the item and requirement lists expect. */
export function buildUrl(path: string, query?: Query): string {
  const base = path.startsWith("/api/") || path === "/api" ? path : `/api${path.startsWith("/") ? "" : "/"}${path}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values as readonly QueryValue[]) {
      if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Obtains a new app token when the stored one is missing or rejected (set by auth.ts, which knows
 * how to exchange a host token); answers whether a retry is worth it.
 */
let reauthenticate: (() => Promise<boolean>) | undefined;
export function onUnauthorized(handler: () => Promise<boolean>) {
  reauthenticate = handler;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Same origin for Connect pages; a Forge page is served by Forge and calls our server by its URL. */
let apiOrigin = "";
export function setApiOrigin(origin: string) {
  apiOrigin = origin.replace(/\/+$/, "");
}

/** A read client/public/early-sign-in.js started with the token of the page's early sign-in (common/firstReads.ts). */
type EarlyRead = { address: string; read: Promise<{ token: string; response: Promise<Response>; sent: number } | undefined> };

/**
 * How long an early read stays the app's: as long as the tree trusts its prefetched first window
 * (client/api/items.ts). An early read left unused (the host's history opened another project) is
 * not an answer for that project's page opened minutes later.
 */
export const EARLY_READ_FRESH_MS = 5000;

/**
 * The answer to the read the page's head started, taken once and only for the very request the app
 * would send now (issue 39): the same address and the same token, the headers being the same by
 * construction, sent less than EARLY_READ_FRESH_MS ago. Its answer, an error included, is then the
 * app's as if it had asked.
 */
function earlyRead(address: string, token: string | undefined): Promise<Response | undefined> | undefined {
  const reads = (globalThis as { rmcloudFirstReads?: EarlyRead[] }).rmcloudFirstReads;
  const n = reads?.findIndex((early) => early.address === address) ?? -1;
  if (!reads || n < 0 || token === undefined) return undefined;
  const [early] = reads.splice(n, 1);
  return early?.read.then((started) =>
    started?.token === token && Date.now() - started.sent < EARLY_READ_FRESH_MS ? started.response : undefined,
  );
}

async function send<T>(method: Method, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
  const address = apiOrigin + buildUrl(path, options.query);
  const attempt = () => {
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = tokenStore.get();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(address, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  };
  const early = method === "GET" ? earlyRead(address, tokenStore.get()) : undefined;
  let response = (early && (await early)) || (await attempt());
  if (response.status === 401 && reauthenticate && (await reauthenticate().catch(() => false))) {
    response = await attempt();
  }
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}

/** The one client for rmCloud's API: same origin, app token, spec error bodies as ApiError. */
export const api = {
  get: <T>(path: string, query?: Query) => send<T>("GET", path, { query }),
  post: <T>(path: string, body?: unknown, query?: Query) => send<T>("POST", path, { body, query }),
  put: <T>(path: string, body?: unknown, query?: Query) => send<T>("PUT", path, { body, query }),
  patch: <T>(path: string, body?: unknown, query?: Query) => send<T>("PATCH", path, { body, query }),
  delete: <T = void>(path: string, query?: Query) => send<T>("DELETE", path, { query }),
};
