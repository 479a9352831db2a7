import type { RequirementEventState } from "../../../common/schemas/requirementSaved.js";

/** What happened to a requirement, as seen from one Jira issue it is (or was) linked to. */
export type IssueChange =
  | { kind: "linked" }
  | { kind: "unlinked" }
  | { kind: "deleted" }
  | { kind: "renamed"; from: string; to: string }
  | { kind: "statusChanged"; from: string | null; to: string | null };

export type IssueComment = {
  issueId: string;
  /** The requirement's label at the time of the change (before a delete or unlink, after otherwise). */
  label: string;
  changes: IssueChange[];
};

/**
 * One comment per affected issue per save: newly linked issues hear of the link, issues no
 * longer linked hear of the unlink (or the delete), and issues that stay linked hear of a
 * new name or status. An issue whose link did not change and whose requirement kept its
 * name and status gets nothing.
 */
export function issueCommentsFor(before: RequirementEventState | undefined, after: RequirementEventState | undefined): IssueComment[] {
  const beforeIssues = new Set(before?.issueIds ?? []);
  const afterIssues = new Set(after?.issueIds ?? []);
  const comments: IssueComment[] = [];

  if (after) {
    for (const issueId of afterIssues) {
      if (!beforeIssues.has(issueId)) comments.push({ issueId, label: after.label, changes: [{ kind: "linked" }] });
    }
  }
  if (before) {
    const removal: IssueChange = after ? { kind: "unlinked" } : { kind: "deleted" };
    for (const issueId of beforeIssues) {
      if (!afterIssues.has(issueId)) comments.push({ issueId, label: before.label, changes: [removal] });
    }
  }
  if (before && after) {
    const changes: IssueChange[] = [];
    if (before.name !== after.name) changes.push({ kind: "renamed", from: before.name, to: after.name });
    if (before.statusId !== after.statusId) {
      changes.push({ kind: "statusChanged", from: before.statusId, to: after.statusId });
    }
    if (changes.length > 0) {
      for (const issueId of afterIssues) {
        if (beforeIssues.has(issueId)) comments.push({ issueId, label: after.label, changes });
      }
    }
  }
  return comments;
}

/** Status ids of the changes, so their names can be looked up once per save. */
export function statusIdsOf(comments: IssueComment[]): string[] {
  const ids = new Set<string>();
  for (const comment of comments) {
    for (const change of comment.changes) {
      if (change.kind !== "statusChanged") continue;
      if (change.from) ids.add(change.from);
      if (change.to) ids.add(change.to);
    }
  }
  return [...ids];
}

type AdfText = { type: "text"; text: string; marks?: Array<{ type: string; attrs?: Record<string, string> }> };
export type AdfDocument = {
  type: "doc";
  version: 1;
  content: Array<{ type: "paragraph"; content: AdfText[] }>;
};

/**
 * The comment in Atlassian Document Format: one paragraph per change, the requirement's
 * label in bold and linked to the requirement in rmCloud.
 */
export function commentDocument(
  comment: IssueComment,
  requirementUrl: string,
  statusName: (statusId: string | null) => string,
): AdfDocument {
  const label: AdfText = {
    type: "text",
    text: comment.label,
    marks: [{ type: "strong" }, { type: "link", attrs: { href: requirementUrl } }],
  };
  const text = (value: string): AdfText => ({ type: "text", text: value });
  return {
    type: "doc",
    version: 1,
    content: comment.changes.map((change) => ({
      type: "paragraph",
      content: [text("rmCloud requirement "), label, text(sentenceEnd(change, statusName))],
    })),
  };
}

function sentenceEnd(change: IssueChange, statusName: (statusId: string | null) => string): string {
  switch (change.kind) {
    case "linked":
      return " was linked to this issue.";
    case "unlinked":
      return " was unlinked from this issue.";
    case "deleted":
      return " was deleted and is no longer linked to this issue.";
    case "renamed":
      return ` was renamed from "${change.from}" to "${change.to}".`;
    case "statusChanged":
      return ` changed status from ${statusName(change.from)} to ${statusName(change.to)}.`;
  }
}
