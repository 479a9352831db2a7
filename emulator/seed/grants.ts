import { RESTRICTED_PAGE_ID } from "./confluence.js";
import { seedContentUsers, seedUsers } from "./users.js";

/**
 * Who may do what on one emulated site: per account the projects (by key) they may not browse
 * and those they browse but may not edit; the app project permissions (`<app key>__<module key>`)
 * the site's permission schemes grant, to everyone who may edit the project; and the pages under
 * a view restriction, with the accounts that may view them. Mutable, so a test can revoke.
 */
export type SiteGrants = {
  hiddenProjects: Record<string, string[]>;
  readOnlyProjects: Record<string, string[]>;
  appPermissions: string[];
  pageViewers: Record<string, string[]>;
};

export function seedGrants(): SiteGrants {
  return {
    hiddenProjects: Object.fromEntries(seedUsers.map((user) => [user.accountId, [...user.hiddenProjects]])),
    readOnlyProjects: Object.fromEntries(seedUsers.map((user) => [user.accountId, [...user.readOnlyProjects]])),
    appPermissions: [],
    pageViewers: { [RESTRICTED_PAGE_ID]: seedContentUsers.map((user) => user.accountId) },
  };
}
