import { randomUUID } from "node:crypto";
import {
  AsymmetricAlgorithm,
  createQueryStringHash,
  decodeSymmetric,
  encodeAsymmetric,
  encodeSymmetric,
  fromMethodAndUrl,
  SymmetricAlgorithm,
} from "atlassian-jwt";
import type { ProductKey, SigningKey, Site } from "./sites.js";

export type Descriptor = {
  key: string;
  name?: string;
  baseUrl: string;
  lifecycle?: { installed?: string; uninstalled?: string };
  modules?: Record<string, unknown>;
};

/** One Connect module of a descriptor, read generically (every module type has key/url/name). */
export type ConnectModule = {
  key: string;
  url?: string;
  name?: { value?: string };
  location?: string;
  event?: string;
  options?: Record<string, unknown>;
  editor?: { url?: string; width?: string; height?: string; editTitle?: { value?: string } };
  parameters?: { identifier: string }[];
  [other: string]: unknown;
};

export const descriptorPath = (product: ProductKey) =>
  product === "jira" ? "/atlassian-connect.json" : "/confluence/atlassian-connect.json";

async function fetchDescriptor(addonUrl: string, product: ProductKey): Promise<Descriptor> {
  const response = await fetch(`${addonUrl}${descriptorPath(product)}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`The add-on's ${product} descriptor answered ${response.status}`);
  return (await response.json()) as Descriptor;
}

/**
 * The add-on's descriptors as the emulated products know them: read once per product and kept, the
 * way Jira keeps the descriptor of an installed app, instead of asked for on every app call and page.
 * Installing reads them again (`refresh`), as Atlassian does when an app is installed or updated, so
 * a changed descriptor counts from the next install on. A failed read is not kept: the add-on may
 * simply not be up yet.
 */
export class Descriptors {
  private readonly read = new Map<ProductKey, Promise<Descriptor>>();

  constructor(private readonly addonUrl: string) {}

  get(product: ProductKey): Promise<Descriptor> {
    return this.read.get(product) ?? this.refresh(product);
  }

  refresh(product: ProductKey): Promise<Descriptor> {
    const reading = fetchDescriptor(this.addonUrl, product);
    this.read.set(product, reading);
    reading.catch(() => {
      if (this.read.get(product) === reading) this.read.delete(product);
    });
    return reading;
  }
}

/** Every module of a type as a list (configurePage and postInstallPage are single objects). */
export function modulesOf(descriptor: Descriptor, type: string): ConnectModule[] {
  const value = descriptor.modules?.[type];
  if (!value) return [];
  return (Array.isArray(value) ? value : [value]) as ConnectModule[];
}

export function findModule(descriptor: Descriptor, key: string): { type: string; module: ConnectModule } | undefined {
  for (const type of Object.keys(descriptor.modules ?? {})) {
    const module = modulesOf(descriptor, type).find((m) => m.key === key);
    if (module) return { type, module };
  }
  return undefined;
}

export const productBaseUrl = (site: Site, product: ProductKey) => (product === "jira" ? site.baseUrl : `${site.baseUrl}/wiki`);

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The lifecycle callback body Atlassian posts on install and uninstall. */
export function lifecyclePayload(site: Site, product: ProductKey, descriptor: Descriptor, eventType: "installed" | "uninstalled") {
  const baseUrl = productBaseUrl(site, product);
  return {
    key: descriptor.key,
    clientKey: site[product].clientKey,
    sharedSecret: site[product].sharedSecret,
    serverVersion: product === "jira" ? "100289" : "6452",
    pluginsVersion: "1001.0.0-SNAPSHOT",
    baseUrl,
    displayUrl: baseUrl,
    productType: product,
    description: product === "jira" ? `Atlassian JIRA at ${baseUrl}` : `Confluence at ${baseUrl}`,
    cloudId: site.cloudId,
    eventType,
  };
}

/**
 * RS256, as Atlassian signs lifecycle callbacks today: kid in the header, aud = the app's base URL.
 * A `jti` of its own keeps two callbacks signed in the same second apart (an add-on accepts each once).
 */
export function signLifecycle(key: SigningKey, clientKey: string, addonBaseUrl: string, lifecyclePath: string): string {
  const iat = nowSeconds();
  const qsh = createQueryStringHash(fromMethodAndUrl("POST", lifecyclePath));
  return encodeAsymmetric(
    { iss: clientKey, aud: [addonBaseUrl], qsh, iat, exp: iat + 180, sub: clientKey, jti: randomUUID() },
    key.privateKey,
    AsymmetricAlgorithm.RS256,
    {
      kid: key.kid,
    },
  );
}

/** HS256 with the installation's shared secret, as Jira signs iframe URLs and webhooks. */
export function signSymmetric(install: { clientKey: string; sharedSecret: string }, qsh: string, user?: { accountId: string }): string {
  const iat = nowSeconds();
  const claims: Record<string, unknown> = { iss: install.clientKey, qsh, iat, exp: iat + 180 };
  if (user) {
    claims.sub = user.accountId;
    claims.context = { user: { accountId: user.accountId } };
  }
  return encodeSymmetric(claims, install.sharedSecret, SymmetricAlgorithm.HS256);
}

/** The qsh of a call, path and query relative to the base it is addressed to. */
export function qshOf(method: string, pathAndQuery: string): string {
  return createQueryStringHash(fromMethodAndUrl(method, pathAndQuery));
}

/** Replaces {project.id}-style context variables; unknown ones become empty as in Jira. */
export function substituteContext(template: string, context: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(context[name.trim()] ?? ""));
}

export type AppCaller = { issuer: string };

/**
 * Verifies an app call's `Authorization: JWT`: HS256 with the installation's shared secret and
 * the qsh of this call. Confluence apps may hash the path with or without the /wiki context path.
 */
export function verifyAppJwt(
  header: string | undefined,
  install: { clientKey: string; sharedSecret: string },
  addonKey: string | undefined,
  method: string,
  pathCandidates: string[],
): AppCaller {
  const token = header?.startsWith("JWT ") ? header.slice(4) : undefined;
  if (!token) throw new Error("missing JWT");
  const claims = decodeSymmetric(token, install.sharedSecret, SymmetricAlgorithm.HS256) as { iss?: string; qsh?: string; exp?: number };
  if (!claims.exp || claims.exp < nowSeconds()) throw new Error("expired JWT");
  const issuer = claims.iss;
  if (!issuer || (issuer !== install.clientKey && issuer !== addonKey)) throw new Error("unknown issuer");
  if (!pathCandidates.some((candidate) => qshOf(method, candidate) === claims.qsh)) throw new Error("qsh mismatch");
  return { issuer };
}
