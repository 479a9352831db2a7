import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_FORGE_OPTIONS, forgeManifestFileText } from "../server/connect/forgeManifest.js";
import type { ConnectProduct } from "../server/connect/modules.js";

/**
 * Regenerates forge/<product>/manifest.yml from server/connect/modules.ts. A deployment passes its
 * own server and app ids (BASE_URL, FORGE_JIRA_APP_ID, FORGE_CONFLUENCE_APP_ID); without them the
 * committed defaults come out.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const appIds: Record<ConnectProduct, string | undefined> = {
  jira: process.env.FORGE_JIRA_APP_ID,
  confluence: process.env.FORGE_CONFLUENCE_APP_ID,
};
for (const product of ["jira", "confluence"] as const) {
  const defaults = DEFAULT_FORGE_OPTIONS[product];
  const target = path.join(root, "forge", product, "manifest.yml");
  const text = forgeManifestFileText(product, {
    baseUrl: process.env.BASE_URL?.replace(/\/+$/, "") ?? defaults.baseUrl,
    appId: appIds[product] ?? defaults.appId,
  });
  fs.writeFileSync(target, text);
  console.log(`Wrote ${target}`);
}
