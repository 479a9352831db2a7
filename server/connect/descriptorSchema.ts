/**
 * The JSON schema our two Connect descriptors are checked against (modules.test.ts, with ajv).
 *
 * Source: Atlassian's published descriptor schemas (`jira-global-schema.json` and
 * `confluence-global-schema.json` in bitbucket.org/atlassian/connect-schemas, the files ACE's
 * `validateDescriptor` downloads) and the app-descriptor and module reference pages on
 * developer.atlassian.com. Those files run to thousands of lines and need the network, so this is
 * their subset for the descriptor's top level and the module types rmCloud declares, with the same
 * field names, enums, key patterns and closed objects; a module type not listed here fails the check
 * until its shape is added.
 */

const str = { type: "string" } as const;
const bool = { type: "boolean" } as const;
const int = { type: "integer" } as const;
const obj = { type: "object" } as const;
const strings = { type: "array", items: str } as const;

/** An object of exactly these fields, as Atlassian's schemas close every module. */
const closed = (properties: Record<string, object>, required: readonly string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const i18nProperty = closed({ value: { type: "string", maxLength: 255 }, i18n: str }, ["value"]);
/** Connect module keys: letters, digits and dashes (the host lower-cases them), at most 100 characters. */
const moduleKey = { type: "string", pattern: "^[a-zA-Z0-9-]+$", maxLength: 100 } as const;
const relativeUrl = { type: "string", pattern: "^/" } as const;
const absoluteUrl = { type: "string", pattern: "^https?://[^\\s]+$" } as const;

/** What every page-like module (project page, general page, admin page, ...) may carry. */
const pageFields = {
  key: moduleKey,
  name: i18nProperty,
  url: relativeUrl,
  weight: int,
  location: str,
  conditions: { type: "array" },
  params: obj,
};

const pageModule = closed({ ...pageFields, icon: obj }, ["key", "name", "url"]);

const webPanel = closed({ ...pageFields, layout: closed({ width: str, height: str }), tooltip: i18nProperty, supportsNative: bool }, [
  "key",
  "name",
  "url",
  "location",
]);

const dialog = closed(
  {
    key: moduleKey,
    url: relativeUrl,
    cacheable: bool,
    options: closed({
      chrome: bool,
      header: i18nProperty,
      width: str,
      height: str,
      size: { enum: ["small", "medium", "large", "x-large", "fullscreen", "maximum"] },
      closeKey: str,
    }),
  },
  ["key", "url"],
);

const webhook = closed(
  { event: { type: "string", minLength: 1 }, url: relativeUrl, excludeBody: bool, filter: str, propertyKeys: strings },
  ["event", "url"],
);

const macroParameter = closed(
  {
    identifier: { type: "string", pattern: "^[a-zA-Z0-9-_]+$" },
    name: i18nProperty,
    description: i18nProperty,
    type: { enum: ["attachment", "boolean", "content", "enum", "int", "spacekey", "string", "username", "date", "url"] },
    required: bool,
    multiple: bool,
    hidden: bool,
    defaultValue: str,
    values: strings,
    aliases: strings,
  },
  ["identifier", "name", "type"],
);

const dynamicContentMacro = closed(
  {
    key: moduleKey,
    name: i18nProperty,
    url: relativeUrl,
    description: i18nProperty,
    outputType: { enum: ["block", "inline"] },
    bodyType: { enum: ["rich-text", "plain-text", "none"] },
    categories: {
      type: "array",
      items: {
        enum: [
          "formatting",
          "confluence-content",
          "media",
          "visuals",
          "navigation",
          "external-content",
          "communication",
          "reporting",
          "admin",
          "development",
        ],
      },
    },
    parameters: { type: "array", items: macroParameter },
    editor: closed({ url: relativeUrl, insertTitle: i18nProperty, editTitle: i18nProperty, width: str, height: str, cacheable: bool }, [
      "url",
    ]),
    icon: obj,
    featured: bool,
    width: str,
    height: str,
    aliases: strings,
  },
  ["key", "name", "url"],
);

/** Jira's project permission module (developer.atlassian.com, modules/project-permission). */
const projectPermission = closed(
  {
    key: moduleKey,
    name: i18nProperty,
    description: i18nProperty,
    category: { enum: ["projects", "issues", "voters_and_watchers", "comments", "attachments", "time_tracking", "other"] },
    conditions: { type: "array" },
  },
  ["key", "name", "description"],
);

const list = (items: object) => ({ type: "array", items, minItems: 1 });

/** Module types both products define. */
const COMMON_MODULES = {
  generalPages: list(pageModule),
  adminPages: list(pageModule),
  configurePage: pageModule,
  postInstallPage: pageModule,
  webPanels: list(webPanel),
  dialogs: list(dialog),
  webhooks: list(webhook),
};

function descriptorSchema(modules: Record<string, object>, scopes: readonly string[]) {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    ...closed(
      {
        key: { type: "string", pattern: "^[a-zA-Z0-9-._]+$", maxLength: 64 },
        name: { type: "string", maxLength: 80 },
        description: str,
        vendor: closed({ name: str, url: absoluteUrl }),
        baseUrl: absoluteUrl,
        links: { type: "object", additionalProperties: str },
        authentication: closed({ type: { enum: ["jwt", "none"] } }, ["type"]),
        apiVersion: int,
        apiMigrations: closed({ "signed-install": bool, gdpr: bool, "context-qsh": bool }),
        enableLicensing: bool,
        lifecycle: closed({ installed: relativeUrl, uninstalled: relativeUrl, enabled: relativeUrl, disabled: relativeUrl }),
        scopes: { type: "array", items: { enum: scopes }, uniqueItems: true },
        modules: closed(modules),
        translations: obj,
        regionBaseUrls: obj,
        cloudAppMigrationSafetyEnabled: bool,
      },
      ["key", "baseUrl", "authentication"],
    ),
  };
}

const COMMON_SCOPES = ["NONE", "READ", "WRITE", "DELETE", "ADMIN", "ACT_AS_USER", "ACCESS_EMAIL_ADDRESSES"] as const;

export const JIRA_DESCRIPTOR_SCHEMA = descriptorSchema(
  { ...COMMON_MODULES, jiraProjectPages: list(pageModule), jiraProjectPermissions: list(projectPermission) },
  [...COMMON_SCOPES, "PROJECT_ADMIN"],
);
export const CONFLUENCE_DESCRIPTOR_SCHEMA = descriptorSchema({ ...COMMON_MODULES, dynamicContentMacros: list(dynamicContentMacro) }, [
  ...COMMON_SCOPES,
  "SPACE_ADMIN",
]);
