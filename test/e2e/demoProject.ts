import { seedUsers } from "../../emulator/seed/users.js";
import { DEFAULT_SITE } from "../../emulator/sites.js";
import { findInstallationByClientKey } from "../../server/db/installationStore.js";
import { seedDemoProject } from "../../server/services/demo/seedDemoProject.js";
import type { Harness } from "./harness.js";

export const PUMP = 10000;

/**
 * What `npm start` seeds on a fresh data folder: the infusion pump's demo requirements (project
 * PUMP of the emulator's default site), linked to its issues. Answers the site's tenant and the
 * account that seeded them.
 */
export async function seedPumpDemo(harness: Harness): Promise<{ tenantId: string; accountId: string }> {
  const site = harness.sites.get(DEFAULT_SITE);
  const installation = site && (await findInstallationByClientKey(harness.addonDeps.db, site.jira.clientKey));
  if (!site || !installation) throw new Error("The emulator's default site is not installed");
  const actor = { tenantId: installation.tenantId, accountId: seedUsers[0]?.accountId ?? "demo" };
  const issues = site.content.issues.filter((issue) => issue.projectId === String(PUMP));
  await seedDemoProject(harness.addonDeps, actor, { projectId: PUMP, projectKey: "PUMP", issues });
  return actor;
}
