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

/** A Connect descriptor's translatable text ({value}) as Forge writes it: a plain string. */
const textOf = (value: unknown) => (value && typeof value === "object" && "value" in value ? String(value.value) : String(value));

/**
 * Connect module types whose Forge counterpart replaces them in a manifest ("Jira Global Permission
 * module and Jira Project Permission module", Atlassian's Connect-to-Forge migration guide): the
 * module moves from `connectModules` to `modules` under the Forge type, keyed as before and marked
 * `migratedFromConnect`, so Jira keeps naming the permission `<app key>__<module key>` (the key the
 * permission schemes hold and `permissions/check` is asked for). The Connect descriptor keeps it as it is.
 */
const FORGE_COUNTERPARTS: Record<string, { type: string; module: (module: Record<string, unknown>) => Record<string, unknown> }> = {
  jiraProjectPermissions: {
    type: "jira:projectPermission",
    module: ({ key, name, description, category }) => ({
      key,
      name: textOf(name),
      description: textOf(description),
      category,
      migratedFromConnect: true,
    }),
  },
};

/** The product's modules of each descriptor type, as a manifest lists them (single-module types as a list of one). */
function moduleListsOf(product: ConnectProduct, modules: readonly ConnectModule[]): [string, Record<string, unknown>[]][] {
  return Object.entries(modulesOf(product, modules)).map(([type, value]) => [
    type,
    SINGLE_MODULE_TYPES.has(type) ? [value as Record<string, unknown>] : (value as Record<string, unknown>[]),
  ]);
}

function connectModulesOf(product: ConnectProduct, modules: readonly ConnectModule[]): Record<string, unknown[]> {
  const connectModules: Record<string, unknown[]> = {
    [`${product}:lifecycle`]: [{ key: `${CONNECT_APPS[product].key}-lifecycle`, ...LIFECYCLE_PATHS }],
  };
  for (const [type, list] of moduleListsOf(product, modules)) {
    if (!(type in FORGE_COUNTERPARTS)) connectModules[`${product}:${type}`] = list.map(withKey);
  }
  return connectModules;
}

/** The modules of the list that Forge carries natively, under their Forge types. */
function migratedModulesOf(product: ConnectProduct, modules: readonly ConnectModule[]): Record<string, unknown[]> {
  const migrated: Record<string, unknown[]> = {};
  for (const [type, list] of moduleListsOf(product, modules)) {
    const counterpart = FORGE_COUNTERPARTS[type];
    if (counterpart) migrated[counterpart.type] = list.map(counterpart.module);
  }
  return migrated;
}

/** The Forge-native modules: Jira's issue panel as Custom UI on our API, and the list's migrated modules; Confluence has none yet. */
function forgeModulesOf(product: ConnectProduct, baseUrl: string, modules: readonly ConnectModule[]) {
  if (product !== "jira") return {};
  return {
    modules: {
      ...migratedModulesOf(product, modules),
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
  const forgeNative = forgeModulesOf(product, options.baseUrl, modules);
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
