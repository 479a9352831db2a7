/**
 * Every Connect module of rmCloud, defined once. Both descriptors are generated from here:
 * Jira's at /atlassian-connect.json (ACE serves it; the top-level atlassian-connect.json is this
 * output with ACE's {{localBaseUrl}} placeholder, kept equal by a test and by
 * `npx tsx server/scripts/writeDescriptor.ts`) and Confluence's at /confluence/atlassian-connect.json.
 * So are the Forge apps that carry the same modules (forgeManifest.ts, forge/<product>/manifest.yml).
 *
 * Every page a host opens goes through the sign-in hand-off `/authenticate/{location}` (spec section 2),
 * which exchanges the signed iframe URL for rmCloud's token and redirects to the location's screen.
 */

import { JIRA_APP_KEY, LINK_REQUIREMENTS_DIALOG_TITLE, REQUIREMENTS_PAGE_MODULE_KEY } from "../../common/requirementLink.js";

export { JIRA_APP_KEY };
/** The Marketplace lists an app per host product, and a listing's key is unique to it. */
export const CONFLUENCE_APP_KEY = "rmcloud-confluence";

export const DESCRIPTOR_PATHS = {
  jira: "/atlassian-connect.json",
  confluence: "/confluence/atlassian-connect.json",
} as const;

/** ACE replaces it with the add-on's base URL when it loads atlassian-connect.json. */
export const LOCAL_BASE_URL_PLACEHOLDER = "{{localBaseUrl}}";

export const LIFECYCLE_PATHS = { installed: "/installed", uninstalled: "/uninstalled" } as const;

export const MODULE_KEYS = {
  requirementsPage: REQUIREMENTS_PAGE_MODULE_KEY,
  issuePanel: "rmcloud-issue-panel",
  linkRequirementsDialog: "link-requirements-dialog",
  configurePage: "rmcloud-configuration",
  adminPage: "rmcloud-admin",
  gettingStarted: "rmcloud-getting-started",
  linkedRequirementsMacro: "rmcloud-linked-requirements",
  insertRequirementsMacro: "rmcloud-insert-requirements",
  editRequirementsPermission: "edit-requirements",
  manageBaselinesPermission: "manage-baselines",
} as const;

/**
 * The key Jira gives a Connect app's own permission in its REST API and permission schemes: the
 * app's key and the module's, joined by two underscores. The Forge app declares the same permissions
 * as `jira:projectPermission` modules migrated from Connect (forgeManifest.ts), which Jira keeps
 * naming this way, so the key stays after a move to Forge.
 */
const appPermissionKey = (moduleKey: string) => `${JIRA_APP_KEY}__${moduleKey}`;

/** rmCloud's project permissions (a Jira administrator grants them per project in its permission scheme). */
export const APP_PROJECT_PERMISSIONS = {
  editRequirements: appPermissionKey(MODULE_KEYS.editRequirementsPermission),
  manageBaselines: appPermissionKey(MODULE_KEYS.manageBaselinesPermission),
} as const;

export const WEBHOOKS = {
  jiraIssueDeleted: { event: "jira:issue_deleted", url: "/webhooks/jira-issue-deleted" },
} as const;

export type Descriptor = {
  key: string;
  name: string;
  description: string;
  vendor: { name: string; url: string };
  baseUrl: string;
  links: { self: string; homepage: string };
  authentication: { type: "jwt" };
  apiVersion: number;
  apiMigrations: Record<string, boolean>;
  enableLicensing: boolean;
  lifecycle: { installed: string; uninstalled: string };
  scopes: string[];
  modules: Record<string, unknown>;
};

const i18n = (value: string) => ({ value });

export type ConnectProduct = "jira" | "confluence";

/** One module of a descriptor: its descriptor type (`jiraProjectPages`, `webhooks`, ...) and the products that carry it. */
export type ConnectModule = {
  products: readonly ConnectProduct[];
  type: string;
  module: Record<string, unknown>;
};

/** Descriptor module types that hold a single module rather than a list. */
export const SINGLE_MODULE_TYPES: ReadonlySet<string> = new Set(["configurePage", "postInstallPage"]);

/**
 * The one list every descriptor and Forge manifest is generated from (forgeManifest.ts writes the
 * manifests): a module added here appears in each product's descriptor and manifest it names.
 */
export const CONNECT_MODULES: readonly ConnectModule[] = [
  {
    products: ["jira"],
    type: "jiraProjectPages",
    module: {
      key: MODULE_KEYS.requirementsPage,
      name: i18n("Requirements"),
      url: "/authenticate/requirements?projectId={project.id}&projectKey={project.key}",
      weight: 100,
    },
  },
  {
    products: ["jira"],
    type: "webPanels",
    module: {
      key: MODULE_KEYS.issuePanel,
      location: "atl.jira.view.issue.right.context",
      name: i18n("Requirements"),
      url: "/authenticate/issue-view-requirements-right-panel?issueId={issue.id}&projectId={project.id}",
      weight: 100,
    },
  },
  // Opened by the issue panel's Edit button with AP.dialog.create({key}); its submit button saves the links.
  {
    products: ["jira"],
    type: "dialogs",
    module: {
      key: MODULE_KEYS.linkRequirementsDialog,
      url: "/authenticate/link-requirements-dialog?issueId={issue.id}&projectId={project.id}",
      options: {
        chrome: true,
        header: i18n(LINK_REQUIREMENTS_DIALOG_TITLE),
        width: "80%",
        height: "60%",
      },
    },
  },
  {
    products: ["jira"],
    type: "configurePage",
    module: { key: MODULE_KEYS.configurePage, name: i18n("rmCloud configuration"), url: "/authenticate/configuration" },
  },
  {
    products: ["jira"],
    type: "adminPages",
    module: { key: MODULE_KEYS.adminPage, name: i18n("rmCloud"), url: "/authenticate/configuration" },
  },
  {
    products: ["jira", "confluence"],
    type: "postInstallPage",
    module: { key: MODULE_KEYS.gettingStarted, name: i18n("Getting started with rmCloud"), url: "/authenticate/getting-started" },
  },
  { products: ["jira"], type: "webhooks", module: { ...WEBHOOKS.jiraIssueDeleted } },
  // Until a site's permission schemes grant these to anyone, Jira's "Edit Issues" decides instead (docs/decisions.md).
  {
    products: ["jira"],
    type: "jiraProjectPermissions",
    module: {
      key: MODULE_KEYS.editRequirementsPermission,
      name: i18n("Edit requirements"),
      description: i18n("Create, edit, move and delete rmCloud requirements and folders of the project, and import them"),
      category: "projects",
    },
  },
  {
    products: ["jira"],
    type: "jiraProjectPermissions",
    module: {
      key: MODULE_KEYS.manageBaselinesPermission,
      name: i18n("Manage baselines"),
      description: i18n("Create and delete rmCloud baselines of the project"),
      category: "projects",
    },
  },
  {
    products: ["confluence"],
    type: "dynamicContentMacros",
    module: {
      key: MODULE_KEYS.linkedRequirementsMacro,
      name: i18n("rmCloud linked requirements"),
      description: i18n("A table of the ID, name and description of the requirements you select"),
      // The editor stores the selection in the hidden `requirements` parameter; the macro id and page
      // version let the view read its parameters from the macro history as well.
      url: "/authenticate/confluence-linked-requirements-macro?requirements={requirements}&contentId={page.id}&macroId={macro.id}&pageVersion={page.version}",
      outputType: "block",
      bodyType: "none",
      categories: ["reporting"],
      parameters: [
        {
          identifier: "requirements",
          name: i18n("Requirements"),
          type: "string",
          required: false,
          multiple: false,
          hidden: true,
        },
      ],
      editor: {
        url: "/authenticate/confluence-linked-requirements-macro-editor",
        insertTitle: i18n("Link requirements to content"),
        editTitle: i18n("Link requirements to content"),
        width: "80%",
        height: "60%",
      },
    },
  },
  {
    products: ["confluence"],
    type: "dynamicContentMacros",
    module: {
      key: MODULE_KEYS.insertRequirementsMacro,
      name: i18n("rmCloud requirements of this page"),
      description: i18n("The requirements linked to this page"),
      url: "/authenticate/confluence-insert-requirements-macro?contentId={page.id}",
      outputType: "block",
      bodyType: "none",
      categories: ["reporting"],
      editor: {
        url: "/authenticate/confluence-insert-requirements-macro-editor?contentId={page.id}",
        insertTitle: i18n("Link requirements to this page"),
        editTitle: i18n("Link requirements to this page"),
        width: "80%",
        height: "60%",
      },
    },
  },
];

/** A product's modules grouped by descriptor type, in list order (single-module types as one object). */
export function modulesOf(product: ConnectProduct, modules: readonly ConnectModule[] = CONNECT_MODULES): Record<string, unknown> {
  const grouped: Record<string, unknown> = {};
  for (const { products, type, module } of modules) {
    if (!products.includes(product)) continue;
    if (SINGLE_MODULE_TYPES.has(type)) grouped[type] = module;
    else grouped[type] = [...((grouped[type] as unknown[] | undefined) ?? []), module];
  }
  return grouped;
}

/** What differs between the two apps; everything else of a descriptor is shared. */
export const CONNECT_APPS = {
  jira: {
    key: JIRA_APP_KEY,
    name: "rmCloud",
    self: DESCRIPTOR_PATHS.jira,
    // READ: projects, issues, statuses, components and users through AP.request (as the user, within the app's scopes).
    // WRITE: the app's comments on issues linked to a saved requirement (customer setting).
    // No ACT_AS_USER: the server writes only as the app, and every user-side call runs in the browser through AP.request.
    scopes: ["READ", "WRITE"],
  },
  confluence: {
    key: CONFLUENCE_APP_KEY,
    name: "rmCloud for Confluence",
    self: DESCRIPTOR_PATHS.confluence,
    // READ: page titles and macro history through AP.request. The links a page holds live in rmCloud, so nothing is written to Confluence.
    scopes: ["READ"],
  },
} as const satisfies Record<ConnectProduct, { key: string; name: string; self: string; scopes: readonly string[] }>;

const APP_DESCRIPTION = "Requirements management for Jira and Confluence: typed requirements, traceability and baselines.";

export function connectDescriptor(
  product: ConnectProduct,
  baseUrl: string,
  modules: readonly ConnectModule[] = CONNECT_MODULES,
): Descriptor {
  const app = CONNECT_APPS[product];
  return {
    key: app.key,
    name: app.name,
    description: APP_DESCRIPTION,
    vendor: { name: "rmCloud", url: "https://rmcloud.example.com" },
    baseUrl,
    links: { self: `${baseUrl}${app.self}`, homepage: baseUrl },
    authentication: { type: "jwt" },
    apiVersion: 1,
    // Install and uninstall callbacks arrive as RS256 JWTs signed by Atlassian (verified against CONNECT_KEYS_CDN_URL).
    apiMigrations: { "signed-install": true },
    // The product has a license page: the host passes `lic` on every iframe URL and `lic=none` ends at /missing-license.
    enableLicensing: true,
    lifecycle: { ...LIFECYCLE_PATHS },
    scopes: [...app.scopes],
    modules: modulesOf(product, modules),
  };
}

export function jiraDescriptor(baseUrl: string): Descriptor {
  return connectDescriptor("jira", baseUrl);
}

export function confluenceDescriptor(baseUrl: string): Descriptor {
  return connectDescriptor("confluence", baseUrl);
}

/** The text of the top-level atlassian-connect.json. */
export function jiraDescriptorFileText(): string {
  return `${JSON.stringify(jiraDescriptor(LOCAL_BASE_URL_PLACEHOLDER), null, 2)}\n`;
}
