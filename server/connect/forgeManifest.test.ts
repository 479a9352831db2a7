import fs from "node:fs";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validate } from "@forge/manifest";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { CONFLUENCE_DESCRIPTOR_SCHEMA, JIRA_DESCRIPTOR_SCHEMA } from "./descriptorSchema.js";
import { DEFAULT_FORGE_OPTIONS, FORGE_ISSUE_PANEL, FORGE_REMOTE_KEY, forgeManifest, forgeManifestFileText } from "./forgeManifest.js";
import {
  APP_PROJECT_PERMISSIONS,
  CONNECT_MODULES,
  type ConnectModule,
  confluenceDescriptor,
  connectDescriptor,
  jiraDescriptor,
} from "./modules.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const manifestPath = (product: "jira" | "confluence") => path.join(root, "forge", product, "manifest.yml");

/**
 * @forge/manifest's full validation (what `forge lint` and `forge deploy` run first) on a copy of the
 * manifest. The issue panel's resource is the output of `npm run forge:build`, absent from a fresh
 * checkout, so the copy's folder gets a stand-in index.html there.
 */
async function forgeValidation(text: string) {
  const dir = await mkdtemp(path.join(tmpdir(), "rmcloud-forge-"));
  try {
    await mkdir(path.join(dir, FORGE_ISSUE_PANEL.path), { recursive: true });
    await writeFile(path.join(dir, FORGE_ISSUE_PANEL.path, "index.html"), "<!doctype html><div id=root></div>");
    await writeFile(path.join(dir, "manifest.yml"), text);
    return await validate(false, path.join(dir, "manifest.yml"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("Forge manifests (Connect on Forge)", () => {
  it.each(["jira", "confluence"] as const)("keeps forge/%s/manifest.yml equal to what the module list generates", (product) => {
    expect(fs.readFileSync(manifestPath(product), "utf8")).toBe(forgeManifestFileText(product));
  });

  it.each(["jira", "confluence"] as const)("passes @forge/manifest's full validation for %s", async (product) => {
    const result = await forgeValidation(fs.readFileSync(manifestPath(product), "utf8"));
    expect(result.errors?.filter((error) => error.level === "error") ?? []).toEqual([]);
    expect(result.success).toBe(true);
  });

  it("fails that validation for a Connect module type Forge does not know", async () => {
    const manifest = forgeManifest("jira");
    const broken = { ...manifest, connectModules: { ...(manifest.connectModules as object), "jira:noSuchModule": [{ key: "x" }] } };
    const result = await forgeValidation(JSON.stringify(broken));
    expect(result.success).toBe(false);
    expect(result.errors?.map((error) => error.message).join("\n")).toContain("jira:noSuchModule");
  });

  it.each(["jira", "confluence"] as const)("keeps the %s app's Connect key and points its Connect modules at our server", (product) => {
    const manifest = parse(fs.readFileSync(manifestPath(product), "utf8"));
    const descriptor = connectDescriptor(product, DEFAULT_FORGE_OPTIONS[product].baseUrl);
    expect(manifest.app.connect).toEqual({ key: descriptor.key, remote: FORGE_REMOTE_KEY, authentication: "jwt" });
    expect(manifest.remotes).toContainEqual(expect.objectContaining({ key: FORGE_REMOTE_KEY, baseUrl: descriptor.baseUrl }));
    expect(manifest.connectModules[`${product}:lifecycle`]).toEqual([
      { key: `${descriptor.key}-lifecycle`, installed: descriptor.lifecycle.installed, uninstalled: descriptor.lifecycle.uninstalled },
    ]);
    expect(manifest.app.licensing).toEqual({ enabled: descriptor.enableLicensing });
  });

  it("carries every other module of each descriptor as a Connect module, keyed as in the descriptor", () => {
    for (const product of ["jira", "confluence"] as const) {
      const descriptor = connectDescriptor(product, "https://a.example.com");
      const connectModules = forgeManifest(product).connectModules as Record<string, Array<Record<string, unknown>>>;
      const carriedTypes = Object.keys(descriptor.modules).filter((type) => type !== "jiraProjectPermissions");
      for (const type of carriedTypes) {
        const value = descriptor.modules[type];
        const carried = connectModules[`${product}:${type}`]?.map(({ key, ...module }) =>
          type === "webhooks" ? module : { key, ...module },
        );
        expect(carried).toEqual(Array.isArray(value) ? value : [value]);
      }
      expect(Object.keys(connectModules).sort()).toEqual(
        [`${product}:lifecycle`, ...carriedTypes.map((type) => `${product}:${type}`)].sort(),
      );
    }
  });

  it("declares rmCloud's project permissions as Forge project permissions migrated from Connect, and the descriptor keeps them", () => {
    const manifest = parse(fs.readFileSync(manifestPath("jira"), "utf8"));
    const descriptorPermissions = jiraDescriptor("https://a.example.com").modules.jiraProjectPermissions as Array<{
      key: string;
      name: { value: string };
      description: { value: string };
      category: string;
    }>;
    expect(descriptorPermissions.map((permission) => permission.name.value)).toEqual(["Edit requirements", "Manage baselines"]);
    expect(manifest.modules["jira:projectPermission"]).toEqual(
      descriptorPermissions.map((permission) => ({
        key: permission.key,
        name: permission.name.value,
        description: permission.description.value,
        category: "projects",
        migratedFromConnect: true,
      })),
    );
    expect(manifest.connectModules).not.toHaveProperty("jira:jiraProjectPermissions");
    // Jira names a migrated permission as it named the Connect one: the keys the access check asks permissions/check for.
    expect(
      manifest.modules["jira:projectPermission"].map((permission: { key: string }) => `${manifest.app.connect.key}__${permission.key}`),
    ).toEqual([APP_PROJECT_PERMISSIONS.editRequirements, APP_PROJECT_PERMISSIONS.manageBaselines]);
  });

  it("fails Forge's validation for a project permission of a category Forge does not know", async () => {
    const manifest = forgeManifest("jira") as { modules: Record<string, Array<Record<string, unknown>>> };
    const [permission] = manifest.modules["jira:projectPermission"] ?? [];
    const broken = {
      ...manifest,
      modules: { ...manifest.modules, "jira:projectPermission": [{ ...permission, category: "requirements" }] },
    };
    const result = await forgeValidation(JSON.stringify(broken));
    expect(result.success).toBe(false);
  });

  it("asks Forge for the descriptor's Connect scopes", () => {
    expect((forgeManifest("jira").permissions as { scopes: string[] }).scopes).toEqual(["read:connect-jira", "write:connect-jira"]);
    expect((forgeManifest("confluence").permissions as { scopes: string[] }).scopes).toEqual(["read:connect-confluence"]);
  });

  it("declares the Forge issue panel as Custom UI calling our server through the remote", () => {
    const manifest = forgeManifest("jira") as {
      modules: { "jira:issuePanel": Array<Record<string, unknown>>; endpoint: Array<Record<string, unknown>> };
      resources: unknown[];
    };
    const [panel] = manifest.modules["jira:issuePanel"];
    expect(panel).toMatchObject({ key: FORGE_ISSUE_PANEL.key, resource: FORGE_ISSUE_PANEL.resource, title: "Requirements" });
    const resolver = panel?.resolver as { endpoint: string } | undefined;
    const endpoint = manifest.modules.endpoint.find((item) => item.key === resolver?.endpoint);
    expect(endpoint).toEqual(expect.objectContaining({ remote: FORGE_REMOTE_KEY }));
    expect(manifest.resources).toEqual([{ key: FORGE_ISSUE_PANEL.resource, path: FORGE_ISSUE_PANEL.path }]);
    expect(forgeManifest("confluence")).not.toHaveProperty("modules");
  });

  it("generates a module added once to the list into both descriptors and both manifests", () => {
    const added: ConnectModule = {
      products: ["jira", "confluence"],
      type: "generalPages",
      module: { key: "rmcloud-help", name: { value: "rmCloud help" }, url: "/authenticate/help" },
    };
    const modules = [...CONNECT_MODULES, added];
    for (const product of ["jira", "confluence"] as const) {
      expect(connectDescriptor(product, "https://a.example.com", modules).modules.generalPages).toEqual([added.module]);
      const manifest = forgeManifest(product, DEFAULT_FORGE_OPTIONS[product], modules);
      expect((manifest.connectModules as Record<string, unknown>)[`${product}:generalPages`]).toEqual([added.module]);
    }
    expect(connectDescriptor("jira", "https://a.example.com").modules).not.toHaveProperty("generalPages");
  });

  it("generates a project permission added once to the list into the descriptor and the Forge app's project permissions", () => {
    const added: ConnectModule = {
      products: ["jira"],
      type: "jiraProjectPermissions",
      module: {
        key: "review-requirements",
        name: { value: "Review requirements" },
        description: { value: "Review" },
        category: "projects",
      },
    };
    const modules = [...CONNECT_MODULES, added];
    expect(connectDescriptor("jira", "https://a.example.com", modules).modules.jiraProjectPermissions).toContainEqual(added.module);
    const manifest = forgeManifest("jira", DEFAULT_FORGE_OPTIONS.jira, modules) as { modules: Record<string, unknown[]> };
    expect(manifest.modules["jira:projectPermission"]).toContainEqual({
      key: "review-requirements",
      name: "Review requirements",
      description: "Review",
      category: "projects",
      migratedFromConnect: true,
    });
  });
});

describe("Connect descriptor schema", () => {
  const ajv = new Ajv({ allErrors: true });
  const checkJira = ajv.compile(JIRA_DESCRIPTOR_SCHEMA);
  const checkConfluence = ajv.compile(CONFLUENCE_DESCRIPTOR_SCHEMA);

  it("accepts both descriptors", () => {
    expect(checkJira(jiraDescriptor("https://addon.example.com")), JSON.stringify(checkJira.errors)).toBe(true);
    expect(checkConfluence(confluenceDescriptor("https://addon.example.com")), JSON.stringify(checkConfluence.errors)).toBe(true);
  });

  it("rejects a module with a field Connect does not define, a bad module key and an unknown scope", () => {
    const descriptor = jiraDescriptor("https://addon.example.com");
    const [page] = descriptor.modules.jiraProjectPages as Array<Record<string, unknown>>;
    expect(checkJira({ ...descriptor, modules: { ...descriptor.modules, jiraProjectPages: [{ ...page, target: "x" }] } })).toBe(false);
    expect(checkJira({ ...descriptor, modules: { ...descriptor.modules, jiraProjectPages: [{ ...page, key: "not a key" }] } })).toBe(false);
    expect(checkJira({ ...descriptor, scopes: ["READ", "SPACE_ADMIN"] })).toBe(false);
    expect(checkConfluence({ ...confluenceDescriptor("https://a.example.com"), modules: { jiraProjectPages: [page] } })).toBe(false);
  });
});
