/**
 * The Forge apps that carry rmCloud's Connect modules ("Connect on Forge"), generated from the same
 * module list as the descriptors (modules.ts). `forge/jira/manifest.yml` and
 * `forge/confluence/manifest.yml` are this output, kept equal by a test and by `npm run forge:manifests`.
 */
import { stringify } from "yaml";
import {
  CONNECT_APPS,
  CONNECT_MODULES,
  type ConnectModule,
  type ConnectProduct,
  LIFECYCLE_PATHS,
  modulesOf,
  SINGLE_MODULE_TYPES,
} from "./modules.js";

/** The remote every Connect module and Forge call goes to: our server. */
export const FORGE_REMOTE_KEY = "rmcloud";
/** The Forge-native issue panel calls our server through this endpoint (invokeRemote). */
const FORGE_ENDPOINT_KEY = "rmcloud-api";
export const FORGE_ISSUE_PANEL = { key: "rmcloud-forge-issue-panel", resource: "issue-panel", path: "static/issue-panel" } as const;

export type ForgeAppOptions = { baseUrl: string; appId: string };

/**
 * What the committed manifests name. `forge register` gives each deployment its own app id; the
 * deployment regenerates with its own `BASE_URL` and app ids (README, Production).
 */
export const DEFAULT_FORGE_OPTIONS: Record<ConnectProduct, ForgeAppOptions> = {
  jira: { baseUrl: "https://rmcloud.example.com", appId: "ari:cloud:ecosystem::app/00000000-0000-4000-8000-000000000001" },
  confluence: { baseUrl: "https://rmcloud.example.com", appId: "ari:cloud:ecosystem::app/00000000-0000-4000-8000-000000000002" },
};

/** Connect scope → Forge's Connect scope (READ → read:connect-jira). */
function forgeScopesOf(product: ConnectProduct): string[] {
  return CONNECT_APPS[product].scopes.map((scope) => `${scope.toLowerCase().replace(/_/g, "-")}:connect-${product}`);
}

/** Forge wants a key on every module; a Connect webhook has none, so its URL's last segment names it. */
function withKey(module: Record<string, unknown>): Record<string, unknown> {
  if (typeof module.key === "string") return module;
  const url = String(module.url ?? "");
  return { key: url.split("?")[0]?.split("/").filter(Boolean).pop() ?? "module", ...module };
}

function connectModulesOf(product: ConnectProduct, modules: readonly ConnectModule[]): Record<string, unknown[]> {
  const connectModules: Record<string, unknown[]> = {
    [`${product}:lifecycle`]: [{ key: `${CONNECT_APPS[product].key}-lifecycle`, ...LIFECYCLE_PATHS }],
  };
  for (const [type, value] of Object.entries(modulesOf(product, modules))) {
    const list = SINGLE_MODULE_TYPES.has(type) ? [value] : (value as Record<string, unknown>[]);
    connectModules[`${product}:${type}`] = list.map((module) => withKey(module as Record<string, unknown>));
  }
  return connectModules;
}

/** The Forge-native modules: Jira's issue panel as Custom UI on our API; Confluence has none yet. */
function forgeModulesOf(product: ConnectProduct, baseUrl: string) {
  if (product !== "jira") return {};
  return {
    modules: {
      "jira:issuePanel": [
        {
          key: FORGE_ISSUE_PANEL.key,
          resource: FORGE_ISSUE_PANEL.resource,
          resolver: { endpoint: FORGE_ENDPOINT_KEY },
          title: "Requirements",
          icon: `${baseUrl}/app/favicon.svg`,
        },
      ],
      endpoint: [{ key: FORGE_ENDPOINT_KEY, remote: FORGE_REMOTE_KEY }],
    },
    resources: [{ key: FORGE_ISSUE_PANEL.resource, path: FORGE_ISSUE_PANEL.path }],
  };
}

export function forgeManifest(
  product: ConnectProduct,
  options: ForgeAppOptions = DEFAULT_FORGE_OPTIONS[product],
  modules: readonly ConnectModule[] = CONNECT_MODULES,
): Record<string, unknown> {
  const forgeNative = forgeModulesOf(product, options.baseUrl);
  return {
    app: {
      id: options.appId,
      runtime: { name: "nodejs22.x" },
      licensing: { enabled: true },
      connect: { key: CONNECT_APPS[product].key, remote: FORGE_REMOTE_KEY, authentication: "jwt" },
    },
    ...("modules" in forgeNative ? { modules: forgeNative.modules } : {}),
    connectModules: connectModulesOf(product, modules),
    remotes: [
      {
        key: FORGE_REMOTE_KEY,
        baseUrl: options.baseUrl,
        // storage: requirements and their links live on our server; fetch: a Forge page calls our API from the browser.
        operations: "modules" in forgeNative ? ["storage", "fetch"] : ["storage"],
        storage: { inScopeEUD: true },
      },
    ],
    ...("resources" in forgeNative ? { resources: forgeNative.resources } : {}),
    permissions: {
      scopes: forgeScopesOf(product),
      ...(product === "jira"
        ? {
            external: { fetch: { client: [{ remote: FORGE_REMOTE_KEY }] } },
            // Atlaskit (the link dialog's select) injects its styles at run time.
            content: { styles: ["unsafe-inline"] },
          }
        : {}),
    },
  };
}

const HEADER = "# Generated from server/connect/modules.ts by `npm run forge:manifests`: edit the module list, not this file.\n";

export function forgeManifestFileText(product: ConnectProduct, options?: ForgeAppOptions): string {
  return HEADER + stringify(forgeManifest(product, options), { lineWidth: 0 });
}
