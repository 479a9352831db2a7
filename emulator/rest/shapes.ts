import {
  type SeedIssue,
  type SeedIssueType,
  type SeedProject,
  type SeedStatus,
  seedIssueTypes,
  seedStatuses,
  statusCategories,
} from "../seed/jira.js";
import { type SeedUser, seedUsers } from "../seed/users.js";
import type { Site } from "../sites.js";

/** Jira Cloud v3 response shapes, built from the seed records. */

export const avatarUrl = (site: Site, accountId: string) => `${site.baseUrl}/_emulator/avatar/${encodeURIComponent(accountId)}.svg`;

export const findUser = (accountId: string | null | undefined): SeedUser | undefined => seedUsers.find((u) => u.accountId === accountId);

export function userShape(site: Site, user: SeedUser) {
  const avatar = avatarUrl(site, user.accountId);
  return {
    self: `${site.baseUrl}/rest/api/3/user?accountId=${user.accountId}`,
    accountId: user.accountId,
    accountType: "atlassian",
    emailAddress: user.emailAddress,
    avatarUrls: { "48x48": avatar, "24x24": avatar, "16x16": avatar, "32x32": avatar },
    displayName: user.displayName,
    active: true,
    timeZone: user.timeZone,
    locale: "en_US",
  };
}

export function statusShape(site: Site, status: SeedStatus) {
  const category = statusCategories[status.category];
  return {
    self: `${site.baseUrl}/rest/api/3/status/${status.id}`,
    description: status.description,
    iconUrl: `${site.baseUrl}/images/icons/statuses/generic.png`,
    name: status.name,
    untranslatedName: status.name,
    id: status.id,
    statusCategory: { self: `${site.baseUrl}/rest/api/3/statuscategory/${category.id}`, ...category },
  };
}

export function issueTypeShape(site: Site, type: SeedIssueType) {
  return {
    self: `${site.baseUrl}/rest/api/3/issuetype/${type.id}`,
    id: type.id,
    description: type.description,
    iconUrl: `${site.baseUrl}/_emulator/issuetype/${type.id}.svg`,
    name: type.name,
    untranslatedName: type.name,
    subtask: false,
    avatarId: 10300 + Number(type.id.slice(-1)),
    hierarchyLevel: type.hierarchyLevel,
  };
}

export function issueTypeIconSvg(type: SeedIssueType): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="${type.color}"/><text x="8" y="12" font-family="Arial" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">${type.name[0]}</text></svg>`;
}

export function projectAvatarUrls(site: Site, project: SeedProject) {
  const url = `${site.baseUrl}/_emulator/project-avatar/${project.key}.svg`;
  return { "48x48": url, "24x24": url, "16x16": url, "32x32": url };
}

export function projectShape(site: Site, project: SeedProject, full = false) {
  const base = {
    expand: "description,lead,issueTypes,url,projectKeys,permissions,insight",
    self: `${site.baseUrl}/rest/api/3/project/${project.id}`,
    id: project.id,
    key: project.key,
    name: project.name,
    avatarUrls: projectAvatarUrls(site, project),
    projectTypeKey: "software",
    simplified: false,
    style: "classic",
    isPrivate: false,
    properties: {},
  };
  if (!full) return base;
  const lead = findUser(project.leadAccountId);
  return {
    ...base,
    description: project.description,
    lead: lead ? userShape(site, lead) : undefined,
    components: project.components.map((c) => componentShape(site, project, c)),
    issueTypes: seedIssueTypes.map((t) => issueTypeShape(site, t)),
    assigneeType: "UNASSIGNED",
    versions: [],
    roles: {},
  };
}

export function componentShape(site: Site, project: SeedProject, component: SeedProject["components"][number]) {
  const lead = findUser(component.leadAccountId);
  return {
    self: `${site.baseUrl}/rest/api/3/component/${component.id}`,
    id: component.id,
    name: component.name,
    description: component.description,
    lead: lead ? userShape(site, lead) : undefined,
    assigneeType: "PROJECT_DEFAULT",
    realAssigneeType: "PROJECT_DEFAULT",
    isAssigneeTypeValid: false,
    project: project.key,
    projectId: Number(project.id),
  };
}

/** Atlassian Document Format for plain text. */
export const adf = (text: string) => ({
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content: text ? [{ type: "text", text }] : [] }],
});

export function adfToText(value: unknown): string {
  if (typeof value === "string") return value;
  if (!value || typeof value !== "object") return "";
  const node = value as { text?: string; content?: unknown[]; type?: string };
  if (typeof node.text === "string") return node.text;
  const parts = (node.content ?? []).map(adfToText);
  return parts.join(node.type === "doc" ? "\n" : "");
}

/** A comment as Jira answers it; its entity properties only when the call expanded `properties`. */
export function commentShape(site: Site, issue: SeedIssue, comment: SeedIssue["comments"][number], expand: string[] = []) {
  const user = findUser(comment.author.accountId);
  const author = user
    ? userShape(site, user)
    : {
        accountId: comment.author.accountId,
        accountType: comment.author.accountType,
        displayName: comment.author.displayName,
        active: true,
        avatarUrls: {},
      };
  return {
    self: `${site.baseUrl}/rest/api/3/issue/${issue.id}/comment/${comment.id}`,
    id: comment.id,
    author,
    body: adf(comment.body),
    updateAuthor: author,
    created: comment.created,
    updated: comment.created,
    jsdPublic: true,
    ...(expand.includes("properties") ? { properties: comment.properties ?? [] } : {}),
  };
}

const NAVIGABLE = [
  "summary",
  "issuetype",
  "status",
  "priority",
  "assignee",
  "reporter",
  "created",
  "updated",
  "components",
  "project",
  "parent",
  "labels",
  "statuscategorychangedate",
];

/** Which fields an issue answer carries: Jira's `fields` parameter (`*all`, `*navigable`, names, `-name`). */
export function resolveFields(requested: string[] | undefined, fallback: string[]): Set<string> {
  const list = (requested && requested.length > 0 ? requested : fallback)
    .flatMap((f) => f.split(","))
    .map((f) => f.trim())
    .filter(Boolean);
  const result = new Set<string>();
  for (const field of list) {
    if (field === "*all") for (const f of [...NAVIGABLE, "description", "comment"]) result.add(f);
    else if (field === "*navigable") for (const f of NAVIGABLE) result.add(f);
    else if (!field.startsWith("-")) result.add(field);
  }
  for (const field of list) if (field.startsWith("-")) result.delete(field.slice(1));
  return result;
}

type FieldBuilder = (site: Site, issue: SeedIssue) => unknown;

const userOrNull = (site: Site, id: string | null) => {
  const found = findUser(id);
  return found ? userShape(site, found) : null;
};

const projectOfIssue = (site: Site, issue: SeedIssue) => site.content.projects.find((p) => p.id === issue.projectId);

/** Each field's builder, made once: a page of 1000 issues builds only the fields asked for, and no closures per issue. */
const ISSUE_FIELDS: Record<string, FieldBuilder> = {
  summary: (_site, issue) => issue.summary,
  issuetype: (site, issue) => {
    const type = seedIssueTypes.find((t) => t.id === issue.issueTypeId);
    return type ? issueTypeShape(site, type) : null;
  },
  status: (site, issue) => {
    const status = seedStatuses.find((s) => s.id === issue.statusId);
    return status ? statusShape(site, status) : null;
  },
  priority: (site, issue) => ({
    self: `${site.baseUrl}/rest/api/3/priority/3`,
    name: issue.priority,
    id: String(["Highest", "High", "Medium", "Low"].indexOf(issue.priority) + 1),
  }),
  assignee: (site, issue) => userOrNull(site, issue.assigneeId),
  reporter: (site, issue) => userOrNull(site, issue.reporterId),
  created: (_site, issue) => issue.created.replace("Z", "+0000"),
  updated: (_site, issue) => issue.updated.replace("Z", "+0000"),
  statuscategorychangedate: (_site, issue) => issue.updated.replace("Z", "+0000"),
  components: (site, issue) => {
    const project = projectOfIssue(site, issue);
    return project
      ? project.components
          .filter((c) => issue.componentIds.includes(c.id))
          .map((c) => ({ self: `${site.baseUrl}/rest/api/3/component/${c.id}`, id: c.id, name: c.name, description: c.description }))
      : [];
  },
  project: (site, issue) => {
    const project = projectOfIssue(site, issue);
    return project ? projectShape(site, project) : null;
  },
  // Looked up only when asked for: a scan of a 50,000-issue project for every issue of every page otherwise.
  parent: (site, issue) => {
    const parent = issue.parentId ? site.content.issues.find((i) => i.id === issue.parentId) : undefined;
    return parent
      ? { id: parent.id, key: parent.key, self: `${site.baseUrl}/rest/api/3/issue/${parent.id}`, fields: { summary: parent.summary } }
      : undefined;
  },
  labels: (_site, issue) => issue.labels,
  description: (_site, issue) => adf(issue.description),
  comment: (site, issue) => ({
    comments: issue.comments.map((c) => commentShape(site, issue, c)),
    self: `${site.baseUrl}/rest/api/3/issue/${issue.id}/comment`,
    maxResults: issue.comments.length,
    total: issue.comments.length,
    startAt: 0,
  }),
};

export function issueShape(site: Site, issue: SeedIssue, fields: Set<string>) {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const build = ISSUE_FIELDS[field];
    if (build) {
      const value = build(site, issue);
      if (value !== undefined) out[field] = value;
    }
  }
  return {
    expand: "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations",
    id: issue.id,
    self: `${site.baseUrl}/rest/api/3/issue/${issue.id}`,
    key: issue.key,
    fields: out,
  };
}

export const jiraError = (...messages: string[]) => ({ errorMessages: messages, errors: {} });
