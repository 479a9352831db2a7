import { seedContentUsers } from "./users.js";

/** A macro on a page; `slot` is the index of the add-on's macro in its descriptor. */
export type PageMacro = { id: string; slot: number; params: Record<string, string> };
/** `macros`: the page's macros as that version saved them (macro history reads them by version). */
export type PageVersion = { number: number; byAccountId: string; when: string; message: string; macros?: PageMacro[] };
/** A footer comment on a page (the app's own or a user's). */
export type PageComment = { id: string; authorAccountId: string | null; authorName: string; body: string; created: string };
export type SeedPage = {
  id: string;
  spaceKey: string;
  title: string;
  body: string;
  parentId: string | null;
  versions: PageVersion[];
  macros: PageMacro[];
  /** Absent in pages kept by an earlier emulator. */
  comments?: PageComment[];
  /** A page being written and never published; absent for a published page. */
  status?: "draft";
};
export type SeedSpace = { id: number; key: string; name: string; description: string; homepageId: string };

const BASE_TIME = Date.UTC(2025, 1, 3, 10, 0, 0);
const DAY = 86_400_000;

const pageTitles: [string, string][] = [
  ["Engineering home", "Start here: how the engineering teams work, where the specs live and who to ask."],
  ["Product requirements overview", "The requirements that the pump, rover and payments teams agreed for this release."],
  ["Infusion pump system specification", "System-level behaviour of the IP-200 pump: dosing, alarms and the drug library."],
  ["Rover navigation design", "How ROVER-7 plans its path from the hazard map and wheel odometry."],
  ["Payments architecture", "Services, queues and databases behind checkout, refunds and settlement."],
  ["Release 2025.1 checklist", "Everything that has to be true before the 2025.1 release ships."],
  ["Risk management file", "Hazards, their causes and the controls that mitigate them."],
  ["Verification and validation plan", "How each requirement is verified, and by which test."],
  ["Meeting notes 2025-02-10", "Requirements review: alarm priorities, refund limits, downlink budget."],
  ["Meeting notes 2025-02-24", "Sprint review: drug library import, telemetry compression results."],
  ["Glossary", "Terms used across the specifications: bolus, occlusion, sol, PSP, SCA."],
  ["Onboarding guide", "Accounts, tools and the first week for new engineers."],
  ["Incident review: duplicate refunds", "What happened on 2025-01-28, why, and what we changed."],
  ["API style guide", "Naming, paging and error formats for our public APIs."],
];

/**
 * The seeded page under a view restriction: only the seeded content users (administrators) may
 * view "Incident review: duplicate refunds"; Noor Haddad and Sami Okafor may not.
 */
export const RESTRICTED_PAGE_ID = String(65537 + 12 * 32);

export function seedConfluence(): { spaces: SeedSpace[]; pages: SeedPage[] } {
  const spaceKey = "ENG";
  const pages = pageTitles.map(([title, summary], index): SeedPage => {
    const id = String(65537 + index * 32);
    const versionCount = (index % 3) + 1;
    // Two pages carry the add-on's macros so that the macro views can be tried straight away.
    const macros: PageMacro[] =
      index === 1
        ? [{ id: "7f3c1e2a-0b7d-4c55-9d8e-1a2b3c4d5e01", slot: 0, params: {} }]
        : index === 5
          ? [{ id: "7f3c1e2a-0b7d-4c55-9d8e-1a2b3c4d5e02", slot: 1, params: {} }]
          : [];
    return {
      id,
      spaceKey,
      title,
      body: `<p>${summary}</p>`,
      parentId: index === 0 ? null : "65537",
      versions: Array.from({ length: versionCount }, (_, v) => {
        const user = seedContentUsers[(index + v) % seedContentUsers.length];
        if (!user) throw new Error("no users");
        return {
          number: v + 1,
          byAccountId: user.accountId,
          when: new Date(BASE_TIME + (index * 2 + v) * DAY).toISOString(),
          message: v === 0 ? "" : "Updated after review",
          macros,
        };
      }),
      macros,
    };
  });
  const spaces: SeedSpace[] = [
    {
      id: 98305,
      key: spaceKey,
      name: "Engineering",
      description: "Specifications, designs and meeting notes of the engineering teams.",
      homepageId: "65537",
    },
  ];
  return { spaces, pages };
}
