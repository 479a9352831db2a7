import {
  type ConnectModule,
  type Descriptor,
  lifecyclePayload,
  modulesOf,
  qshOf,
  signLifecycle,
  signSymmetric,
  substituteContext,
} from "./connect.js";
import type { ProductKey, SigningKey, Site } from "./sites.js";

export type InstallResult = { site: string; product: ProductKey; status: number | "error"; message?: string };

const PRODUCTS: ProductKey[] = ["jira", "confluence"];

/**
 * Posts the signed lifecycle callback of each product's descriptor, as Atlassian does on (un)install.
 * `descriptorOf` names the descriptor to use: read afresh for an install, the known one for an uninstall.
 */
export async function postLifecycle(
  descriptorOf: (product: ProductKey) => Promise<Descriptor>,
  key: SigningKey,
  site: Site,
  eventType: "installed" | "uninstalled",
): Promise<InstallResult[]> {
  const results: InstallResult[] = [];
  for (const product of PRODUCTS) {
    try {
      const descriptor = await descriptorOf(product);
      const lifecyclePath = descriptor.lifecycle?.[eventType];
      if (!lifecyclePath) {
        results.push({ site: site.name, product, status: "error", message: `the descriptor has no ${eventType} lifecycle` });
        continue;
      }
      const token = signLifecycle(key, site[product].clientKey, descriptor.baseUrl, lifecyclePath);
      const response = await fetch(`${descriptor.baseUrl}${lifecyclePath}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `JWT ${token}` },
        body: JSON.stringify(lifecyclePayload(site, product, descriptor, eventType)),
        signal: AbortSignal.timeout(15_000),
      });
      const text = response.ok ? "" : (await response.text()).slice(0, 300);
      results.push({ site: site.name, product, status: response.status, ...(text ? { message: text } : {}) });
    } catch (error) {
      results.push({ site: site.name, product, status: "error", message: (error as Error).message });
    }
  }
  return results;
}

/** Sends a webhook to every module of the descriptor subscribed to the event, signed like Jira. */
export async function sendWebhook(
  descriptor: Descriptor,
  install: { clientKey: string; sharedSecret: string },
  event: string,
  body: unknown,
  context: Record<string, string>,
): Promise<number[]> {
  const hooks = modulesOf(descriptor, "webhooks").filter((hook: ConnectModule) => hook.event === event && hook.url);
  return Promise.all(
    hooks.map(async (hook) => {
      const path = substituteContext(hook.url ?? "", context);
      const token = signSymmetric(install, qshOf("POST", path));
      const response = await fetch(`${descriptor.baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `JWT ${token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      return response.status;
    }),
  );
}

/**
 * The iframe URL Jira or Confluence renders for a module: the add-on's base URL and the module's
 * URL with its context, the standard parameters, and a JWT whose qsh covers exactly that URL.
 */
export function signedIframeUrl(input: {
  descriptor: Descriptor;
  moduleUrl: string;
  site: Site;
  product: ProductKey;
  hostOrigin: string;
  context: Record<string, string>;
  user: { accountId: string; timeZone: string };
  channel: string;
}): string {
  const { descriptor, site, product } = input;
  const url = new URL(`${descriptor.baseUrl}${substituteContext(input.moduleUrl, input.context)}`);
  const params: Record<string, string> = {
    xdm_e: input.hostOrigin,
    xdm_c: `channel-${input.channel}`,
    cp: product === "jira" ? "" : "/wiki",
    xdm_deprecated_addon_key_do_not_use: descriptor.key,
    lic: site.license === "active" ? "active" : "none",
    cv: "1001.0.0-SNAPSHOT",
    tz: input.user.timeZone,
    loc: "en-US",
    user_id: "",
    user_key: "",
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  // Jira hands a page's own `ac.*` URL parameters on to the add-on's iframe.
  for (const [name, value] of Object.entries(input.context)) if (name.startsWith("ac.")) url.searchParams.set(name, value);
  const basePath = new URL(descriptor.baseUrl).pathname.replace(/\/$/, "");
  const relative = `${url.pathname.slice(basePath.length)}${url.search}`;
  url.searchParams.set("jwt", signSymmetric(site[product], qshOf("GET", relative), input.user));
  return url.toString();
}
