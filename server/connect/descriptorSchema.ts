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

const i18nProperty = {
  type: "object",
  properties: { value: { type: "string", maxLength: 255 }, i18n: { type: "string" } },
  required: ["value"],
  additionalProperties: false,
} as const;

/** Connect module keys: letters, digits and dashes (the host lower-cases them), at most 100 characters. */
const moduleKey = { type: "string", pattern: "^[a-zA-Z0-9-]+$", maxLength: 100 } as const;
const relativeUrl = { type: "string", pattern: "^/" } as const;
const absoluteUrl = { type: "string", pattern: "^https?://[^\\s]+$" } as const;

const pageModule = {
  type: "object",
  properties: {
    key: moduleKey,
    name: i18nProperty,
    url: relativeUrl,
    weight: { type: "integer" },
    location: { type: "string" },
    icon: { type: "object" },
    conditions: { type: "array" },
    params: { type: "object" },
  },
  required: ["key", "name", "url"],
  additionalProperties: false,
} as const;

const webPanel = {
  type: "object",
  properties: {
    key: moduleKey,
    name: i18nProperty,
    url: relativeUrl,
    location: { type: "string" },
    weight: { type: "integer" },
    layout: { type: "object", properties: { width: { type: "string" }, height: { type: "string" } } },
    tooltip: i18nProperty,
    conditions: { type: "array" },
    params: { type: "object" },
    supportsNative: { type: "boolean" },
  },
  required: ["key", "name", "url", "location"],
  additionalProperties: false,
} as const;

const dialog = {
  type: "object",
  properties: {
    key: moduleKey,
    url: relativeUrl,
    cacheable: { type: "boolean" },
    options: {
      type: "object",
      properties: {
        chrome: { type: "boolean" },
        header: i18nProperty,
        width: { type: "string" },
        height: { type: "string" },
        size: { enum: ["small", "medium", "large", "x-large", "fullscreen", "maximum"] },
        closeKey: { type: "string" },
      },
      additionalProperties: false,
    },
  },
  required: ["key", "url"],
  additionalProperties: false,
} as const;

const webhook = {
  type: "object",
  properties: {
    event: { type: "string", minLength: 1 },
    url: relativeUrl,
    excludeBody: { type: "boolean" },
    filter: { type: "string" },
    propertyKeys: { type: "array", items: { type: "string" } },
  },
  required: ["event", "url"],
  additionalProperties: false,
} as const;

const macroParameter = {
  type: "object",
  properties: {
    identifier: { type: "string", pattern: "^[a-zA-Z0-9-_]+$" },
    name: i18nProperty,
    description: i18nProperty,
    type: { enum: ["attachment", "boolean", "content", "enum", "int", "spacekey", "string", "username", "date", "url"] },
    required: { type: "boolean" },
    multiple: { type: "boolean" },
    hidden: { type: "boolean" },
    defaultValue: { type: "string" },
    values: { type: "array", items: { type: "string" } },
    aliases: { type: "array", items: { type: "string" } },
  },
  required: ["identifier", "name", "type"],
  additionalProperties: false,
} as const;

const dynamicContentMacro = {
  type: "object",
  properties: {
    key: moduleKey,
    name: i18nProperty,
    url: relativeUrl,
    description: i18nProperty,
    outputType: { enum: ["block", "inline"] },
    bodyType: { enum: ["rich-text", "plain-text", "none"] },
    categories: {
      type: "array",
      items: {
        enum: ["formatting", "confluence-content", "media", "visuals", "navigation", "external-content", "communication", "reporting", "admin", "development"],
      },
    },
    parameters: { type: "array", items: macroParameter },
    editor: {
      type: "object",
      properties: {
        url: relativeUrl,
        insertTitle: i18nProperty,
        editTitle: i18nProperty,
        width: { type: "string" },
        height: { type: "string" },
        cacheable: { type: "boolean" },
      },
      required: ["url"],
      additionalProperties: false,
    },
    icon: { type: "object" },
    featured: { type: "boolean" },
    width: { type: "string" },
    height: { type: "string" },
    aliases: { type: "array", items: { type: "string" } },
  },
  required: ["key", "name", "url"],
  additionalProperties: false,
} as const;

const list = (items: object) => ({ type: "array", items, minItems: 1 });

const JIRA_MODULES = {
  jiraProjectPages: list(pageModule),
  generalPages: list(pageModule),
  adminPages: list(pageModule),
  configurePage: pageModule,
  postInstallPage: pageModule,
  webPanels: list(webPanel),
  dialogs: list(dialog),
  webhooks: list(webhook),
};

const CONFLUENCE_MODULES = {
  dynamicContentMacros: list(dynamicContentMacro),
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
    type: "object",
    properties: {
      key: { type: "string", pattern: "^[a-zA-Z0-9-._]+$", maxLength: 64 },
      name: { type: "string", maxLength: 80 },
      description: { type: "string" },
      vendor: {
        type: "object",
        properties: { name: { type: "string" }, url: absoluteUrl },
        additionalProperties: false,
      },
      baseUrl: absoluteUrl,
      links: { type: "object", additionalProperties: { type: "string" } },
      authentication: { type: "object", properties: { type: { enum: ["jwt", "none"] } }, required: ["type"], additionalProperties: false },
      apiVersion: { type: "integer" },
      apiMigrations: {
        type: "object",
        properties: { "signed-install": { type: "boolean" }, gdpr: { type: "boolean" }, "context-qsh": { type: "boolean" } },
        additionalProperties: false,
      },
      enableLicensing: { type: "boolean" },
      lifecycle: {
        type: "object",
        properties: {
          installed: relativeUrl,
          uninstalled: relativeUrl,
          enabled: relativeUrl,
          disabled: relativeUrl,
        },
        additionalProperties: false,
      },
      scopes: { type: "array", items: { enum: scopes }, uniqueItems: true },
      modules: { type: "object", properties: modules, additionalProperties: false },
      translations: { type: "object" },
      regionBaseUrls: { type: "object" },
      cloudAppMigrationSafetyEnabled: { type: "boolean" },
    },
    required: ["key", "baseUrl", "authentication"],
    additionalProperties: false,
  };
}

const COMMON_SCOPES = ["NONE", "READ", "WRITE", "DELETE", "ADMIN", "ACT_AS_USER", "ACCESS_EMAIL_ADDRESSES"] as const;

export const JIRA_DESCRIPTOR_SCHEMA = descriptorSchema(JIRA_MODULES, [...COMMON_SCOPES, "PROJECT_ADMIN"]);
export const CONFLUENCE_DESCRIPTOR_SCHEMA = descriptorSchema(CONFLUENCE_MODULES, [...COMMON_SCOPES, "SPACE_ADMIN"]);
