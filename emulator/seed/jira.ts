import { seedContentUsers } from "./users.js";

export type StatusCategoryKey = "new" | "indeterminate" | "done";
export type SeedStatus = { id: string; name: string; description: string; category: StatusCategoryKey };
export type SeedIssueType = { id: string; name: string; description: string; hierarchyLevel: number; color: string };
export type SeedComponent = { id: string; name: string; description: string; leadAccountId: string };
export type SeedProject = {
  id: string;
  key: string;
  name: string;
  description: string;
  leadAccountId: string;
  components: SeedComponent[];
};
export type SeedComment = {
  id: string;
  author: { accountId: string; displayName: string; accountType: "atlassian" | "app" };
  body: string;
  created: string;
  /** Entity properties set when it was posted (`properties` of the POST); shown with `expand=properties`. */
  properties?: { key: string; value: unknown }[];
};
export type SeedIssue = {
  id: string;
  key: string;
  projectId: string;
  issueTypeId: string;
  statusId: string;
  summary: string;
  description: string;
  priority: "Highest" | "High" | "Medium" | "Low";
  assigneeId: string | null;
  reporterId: string;
  componentIds: string[];
  parentId: string | null;
  labels: string[];
  created: string;
  updated: string;
  comments: SeedComment[];
};

export const statusCategories: Record<StatusCategoryKey, { id: number; key: StatusCategoryKey; colorName: string; name: string }> = {
  new: { id: 2, key: "new", colorName: "blue-gray", name: "To Do" },
  indeterminate: { id: 4, key: "indeterminate", colorName: "yellow", name: "In Progress" },
  done: { id: 3, key: "done", colorName: "green", name: "Done" },
};

export const seedStatuses: SeedStatus[] = [
  { id: "10000", name: "Backlog", description: "Not yet planned.", category: "new" },
  { id: "10001", name: "To Do", description: "Planned, work has not started.", category: "new" },
  { id: "3", name: "In Progress", description: "This issue is being actively worked on.", category: "indeterminate" },
  { id: "10002", name: "In Review", description: "Waiting for a peer review.", category: "indeterminate" },
  { id: "10003", name: "Done", description: "Work on this issue is complete.", category: "done" },
  { id: "10004", name: "Won't Do", description: "This issue was closed without a fix.", category: "done" },
];

export const seedIssueTypes: SeedIssueType[] = [
  { id: "10000", name: "Epic", description: "A big user story that needs to be broken down.", hierarchyLevel: 1, color: "#904EE2" },
  { id: "10001", name: "Story", description: "Functionality or a feature expressed as a user goal.", hierarchyLevel: 0, color: "#63BA3C" },
  { id: "10002", name: "Task", description: "A small, distinct piece of work.", hierarchyLevel: 0, color: "#4BADE8" },
  { id: "10003", name: "Bug", description: "A problem or error.", hierarchyLevel: 0, color: "#E5493A" },
];

type ProjectTheme = {
  key: string;
  name: string;
  description: string;
  components: [string, string][];
  epics: string[];
  subjects: string[];
  storyGoals: string[];
  tasks: string[];
  bugs: string[];
};

const themes: ProjectTheme[] = [
  {
    key: "PUMP",
    name: "Infusion Pump Controller",
    description: "Firmware and companion software of the IP-200 infusion pump.",
    components: [
      ["Dosing engine", "Rate and volume calculations"],
      ["Alarms", "Occlusion, air-in-line and battery alarms"],
      ["User interface", "Touch screen and keypad"],
      ["Drug library", "Drug limits and profiles"],
      ["Connectivity", "Wi-Fi and hospital EMR integration"],
    ],
    epics: [
      "Dose error reduction",
      "Alarm management redesign",
      "Drug library 2.0",
      "EMR auto-programming",
      "Battery life improvements",
      "Regulatory submission 510(k)",
    ],
    subjects: [
      "infusion rate",
      "bolus dose",
      "occlusion alarm",
      "drug library entry",
      "battery warning",
      "audit log",
      "pump status screen",
      "titration step",
    ],
    storyGoals: [
      "As a nurse I can confirm the {s} before it is applied",
      "As a biomed technician I can review the {s} history",
      "As a pharmacist I can set hard limits for the {s}",
      "As a nurse I can silence and acknowledge the {s}",
    ],
    tasks: [
      "Write verification protocol for the {s}",
      "Update hazard analysis for the {s}",
      "Refactor {s} module for unit testing",
      "Document {s} in the user manual",
    ],
    bugs: [
      "{S} shows stale value after resume",
      "{S} not logged when pump restarts",
      "Rounding error in {s} at low rates",
      "{S} flickers on the small display",
    ],
  },
  {
    key: "ROVER",
    name: "Mars Rover Firmware",
    description: "Navigation, power and telemetry software of the ROVER-7 field robot.",
    components: [
      ["Navigation", "Path planning and obstacle avoidance"],
      ["Power", "Solar panels and battery management"],
      ["Telemetry", "Downlink packets and ground station"],
      ["Drive train", "Wheel motors and suspension"],
    ],
    epics: [
      "Autonomous navigation v2",
      "Power budget optimisation",
      "Telemetry compression",
      "Sample caching",
      "Fault protection",
      "Thermal control",
    ],
    subjects: [
      "wheel odometry",
      "hazard map",
      "battery state of charge",
      "telemetry frame",
      "sun sensor reading",
      "drive command queue",
      "thermal model",
      "camera mast",
    ],
    storyGoals: [
      "As a rover driver I can preview the {s} before uplink",
      "As a flight engineer I can replay the {s} from the last sol",
      "As a ground operator I am alerted when the {s} is out of range",
      "As a scientist I can tag the {s} with a target name",
    ],
    tasks: [
      "Calibrate {s} on the test bed",
      "Add fault injection test for the {s}",
      "Port {s} handling to the new RTOS",
      "Review {s} telemetry channels",
    ],
    bugs: [
      "{S} drifts after a long traverse",
      "{S} missing from the downlink packet",
      "{S} overflows at low temperature",
      "Ground tool crashes parsing the {s}",
    ],
  },
  {
    key: "PAY",
    name: "Payments Platform",
    description: "Card and wallet payments for the web shop and the mobile apps.",
    components: [
      ["Checkout", "Checkout pages and payment form"],
      ["Refunds", "Full and partial refunds"],
      ["Fraud", "Risk scoring and 3-D Secure"],
      ["Reporting", "Settlement and finance reports"],
      ["Wallets", "Apple Pay and Google Pay"],
    ],
    epics: [
      "PSD2 strong customer authentication",
      "Partial refunds",
      "Wallet payments",
      "Settlement reporting",
      "Multi-currency pricing",
      "PCI DSS 4.0 compliance",
    ],
    subjects: [
      "payment intent",
      "refund request",
      "3-D Secure challenge",
      "settlement report",
      "saved card",
      "currency conversion",
      "chargeback",
      "payout schedule",
    ],
    storyGoals: [
      "As a shopper I can retry a failed {s}",
      "As a support agent I can look up a {s} by order number",
      "As a finance analyst I can export the {s} as CSV",
      "As a merchant I am notified when a {s} changes state",
    ],
    tasks: [
      "Add idempotency keys to the {s} API",
      "Load test the {s} endpoint",
      "Migrate {s} table to the new schema",
      "Add monitoring dashboard for the {s}",
    ],
    bugs: [
      "{S} is created twice on double click",
      "{S} amount wrong for zero-decimal currencies",
      "{S} webhook arrives before the order exists",
      "Timeout in {s} lookup under load",
    ],
  },
];

export const ISSUES_PER_PROJECT = 66;
const BASE_TIME = Date.UTC(2025, 0, 6, 9, 0, 0);
const HOUR = 3_600_000;

/** A tiny deterministic generator so every run seeds the same data. */
function pick<T>(list: T[], n: number): T {
  const item = list[((n % list.length) + list.length) % list.length];
  if (item === undefined) throw new Error("empty list");
  return item;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const fill = (template: string, subject: string) => template.replace("{s}", subject).replace("{S}", capitalise(subject));

function seedComment(issueId: string, user: (typeof seedContentUsers)[number], issueCreated: string): SeedComment {
  return {
    id: String(20000 + Number(issueId)),
    author: { accountId: user.accountId, displayName: user.displayName, accountType: "atlassian" },
    body: "Discussed in the refinement meeting; estimate agreed.",
    created: new Date(Date.parse(issueCreated) + 2 * HOUR).toISOString(),
  };
}

export type JiraSeed = { projects: SeedProject[]; issues: SeedIssue[] };

export function seedJira(): JiraSeed {
  const projects: SeedProject[] = [];
  const issues: SeedIssue[] = [];
  let nextIssueId = 10000;
  let nextComponentId = 10000;
  themes.forEach((theme, p) => {
    const project: SeedProject = {
      id: String(10000 + p),
      key: theme.key,
      name: theme.name,
      description: theme.description,
      leadAccountId: pick(seedContentUsers, p).accountId,
      components: theme.components.map(([name, description], c) => ({
        id: String(nextComponentId++),
        name,
        description,
        leadAccountId: pick(seedContentUsers, p + c).accountId,
      })),
    };
    projects.push(project);
    const epicIds: string[] = [];
    for (let n = 1; n <= ISSUES_PER_PROJECT; n++) {
      const id = String(nextIssueId++);
      const isEpic = n <= theme.epics.length;
      const rest = n - theme.epics.length;
      const typeId = isEpic ? "10000" : pick(["10001", "10001", "10002", "10003"], rest);
      const subject = pick(theme.subjects, rest * 7 + Math.floor(rest / 8));
      const variant = Math.floor(rest / 4);
      const summary = isEpic
        ? pick(theme.epics, n - 1)
        : typeId === "10001"
          ? fill(pick(theme.storyGoals, variant), subject)
          : typeId === "10002"
            ? fill(pick(theme.tasks, variant), subject)
            : fill(pick(theme.bugs, variant), subject);
      if (isEpic) epicIds.push(id);
      const created = new Date(BASE_TIME + (p * 400 + n * 5) * HOUR).toISOString();
      const statusId = pick(seedStatuses, n * 5 + p).id;
      issues.push({
        id,
        key: `${theme.key}-${n}`,
        projectId: project.id,
        issueTypeId: typeId,
        statusId,
        summary,
        description: `${summary}. Acceptance criteria are agreed with the product owner of ${theme.name}.`,
        priority: pick(["Medium", "High", "Low", "Medium", "Highest"] as const, n + p),
        assigneeId: n % 7 === 0 ? null : pick(seedContentUsers, n * 3 + p).accountId,
        reporterId: pick(seedContentUsers, n + p * 2).accountId,
        componentIds: n % 5 === 0 ? [] : [pick(project.components, n).id],
        parentId: isEpic ? null : pick(epicIds, rest),
        labels: n % 4 === 0 ? ["release-2025.1"] : [],
        created,
        updated: new Date(Date.parse(created) + ((n % 9) + 1) * HOUR).toISOString(),
        comments: n % 6 === 0 ? [seedComment(id, pick(seedContentUsers, n + 1), created)] : [],
      });
    }
  });
  return { projects, issues };
}
