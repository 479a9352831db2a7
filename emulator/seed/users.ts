export type SeedUser = {
  accountId: string;
  displayName: string;
  emailAddress: string;
  color: string;
  timeZone: string;
  /** Holds Jira's "Administer Jira" global permission (ADMINISTER). */
  administrator: boolean;
  /** Keys of the seeded projects this user may not browse (BROWSE_PROJECTS): Jira hides them and their issues. */
  hiddenProjects: readonly string[];
  /** Keys of the seeded projects this user browses but may not edit (no EDIT_ISSUES, nor any app's project permission). */
  readOnlyProjects: readonly string[];
};

const ADMINISTRATOR = { administrator: true, hiddenProjects: [], readOnlyProjects: [] } as const;

/**
 * The people the seeded content names (project and component leads, assignees, reporters,
 * comment authors, page versions): administrators who browse every project. The seed picks from
 * this list alone, so a user added below changes none of that content.
 * Account ids look like Atlassian's (24 hex digits, "557058:" prefix for older accounts).
 */
export const seedContentUsers: SeedUser[] = [
  {
    accountId: "5b10a2844c20165700ede21g",
    displayName: "Alana Grant",
    emailAddress: "alana.grant@example.com",
    color: "#0052CC",
    timeZone: "Australia/Sydney",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b10ac8d82e05b22cc7d4ef5",
    displayName: "Mia Krystof",
    emailAddress: "mia.krystof@example.com",
    color: "#00875A",
    timeZone: "Europe/Berlin",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b109f2e9729b51b54dc274d",
    displayName: "Jie Yan Song",
    emailAddress: "jie.song@example.com",
    color: "#FF5630",
    timeZone: "Asia/Shanghai",
    ...ADMINISTRATOR,
  },
  {
    accountId: "557058:f58131cb-b67d-43c7-b30d-6b58d40bd077",
    displayName: "Emma Richards",
    emailAddress: "emma.richards@example.com",
    color: "#6554C0",
    timeZone: "America/New_York",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b10a0effa615349cb016cd8",
    displayName: "Omar Darboe",
    emailAddress: "omar.darboe@example.com",
    color: "#FFAB00",
    timeZone: "Africa/Banjul",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b10ac8d82e05b22cc7d4ef6",
    displayName: "Fran Perez",
    emailAddress: "fran.perez@example.com",
    color: "#00B8D9",
    timeZone: "Europe/Madrid",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b10a2844c20165700ede22a",
    displayName: "Grace Chen",
    emailAddress: "grace.chen@example.com",
    color: "#36B37E",
    timeZone: "America/Los_Angeles",
    ...ADMINISTRATOR,
  },
  {
    accountId: "5b10a2844c20165700ede22b",
    displayName: "Ravi Patel",
    emailAddress: "ravi.patel@example.com",
    color: "#FF7452",
    timeZone: "Asia/Kolkata",
    ...ADMINISTRATOR,
  },
];

/**
 * A member of the site who is not a Jira administrator and may not browse ROVER: sign in as her
 * to see what rmCloud refuses (configuration changes) and leaves out (ROVER's issues in exports).
 */
export const restrictedUser: SeedUser = {
  accountId: "5b10a2844c20165700ede22c",
  displayName: "Noor Haddad",
  emailAddress: "noor.haddad@example.com",
  color: "#8777D9",
  timeZone: "Asia/Amman",
  administrator: false,
  hiddenProjects: ["ROVER"],
  readOnlyProjects: [],
};

/**
 * A member who is no Jira administrator and browses every project but may not edit PUMP's issues:
 * sign in as him to see rmCloud read-only in one project (its buttons disabled, its changes refused).
 */
export const browseOnlyUser: SeedUser = {
  accountId: "5b10a2844c20165700ede22d",
  displayName: "Sami Okafor",
  emailAddress: "sami.okafor@example.com",
  color: "#00A3BF",
  timeZone: "Africa/Lagos",
  administrator: false,
  hiddenProjects: [],
  readOnlyProjects: ["PUMP"],
};

/** Everyone who can sign in to the emulated site (the user picker, user searches and lookups). */
export const seedUsers: SeedUser[] = [...seedContentUsers, restrictedUser, browseOnlyUser];

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** A round avatar with the user's initials, as served at /_emulator/avatar/{accountId}.svg. */
export function avatarSvg(user: Pick<SeedUser, "displayName" | "color">): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><circle cx="24" cy="24" r="24" fill="${user.color}"/><text x="24" y="30" font-family="Arial, sans-serif" font-size="18" font-weight="bold" fill="#fff" text-anchor="middle">${initials(user.displayName)}</text></svg>`;
}
