import Lozenge from "@atlaskit/lozenge";
import { token } from "@atlaskit/tokens";
import type { ReactNode } from "react";
import { requirementLabel } from "../../../common/labels.js";
import type { ComparedField, DiffStatus } from "../../../common/schemas/baseline.js";
import type { BaselineRevision, RequirementDiff } from "../../api/baselines.js";
import { useIssuesByIds, useProjectComponents, useStatus } from "../../api/jira/index.js";
import { GLOBAL_PROJECT_ID } from "../../api/projects.js";
import { UserName } from "../RequirementDetail/UserName.js";
import { suspectTargetText } from "../SuspectLinks/suspectTargetText.js";
import { type DiffPart, wordDiff } from "./wordDiff.js";

/** Spec section 2: the rows of each requirement's diff table, under the names the screen shows. */
const FIELD_LABELS: ReadonlyArray<[ComparedField, string]> = [
  ["name", "Name"],
  ["requirement_type_id", "Type"],
  ["assigned_to", "Assignee"],
  ["status", "Status"],
  ["components", "Components"],
  ["description", "Description"],
  ["linked_requirements", "Linked Requirements"],
  ["issues", "Linked Issues"],
  ["contents", "Linked Confluence Content"],
  ["attachments", "Attachments"],
  ["suspect_links", "Suspect links"],
];
/** Spec section 4: Global Requirements have no assignee, status or components. */
const PROJECT_ONLY_FIELDS = new Set<ComparedField>(["assigned_to", "status", "components"]);

const STATUS_LOZENGES: Record<DiffStatus, { text: string; appearance: "success" | "removed" | "moved" | "default" }> = {
  added: { text: "Added", appearance: "success" },
  removed: { text: "Removed", appearance: "removed" },
  changed: { text: "Changed", appearance: "moved" },
  unchanged: { text: "Unchanged", appearance: "default" },
};

const cell = { padding: token("space.075"), verticalAlign: "top", borderBottom: `1px solid ${token("color.border")}` } as const;

/** One requirement of a comparison: each compared field in Baseline 1 and Baseline 2, the changed rows marked. */
export function RequirementDiffTable({ projectId, diff }: { projectId: number; diff: RequirementDiff }) {
  const shown = diff.baseline2 ?? diff.baseline1;
  if (!shown) return null;
  const changed = new Set(diff.changed_fields);
  const fields = FIELD_LABELS.filter(([field]) => projectId !== GLOBAL_PROJECT_ID || !PROJECT_ONLY_FIELDS.has(field));
  const lozenge = STATUS_LOZENGES[diff.status];
  const title = requirementLabel(shown);
  return (
    <section aria-label={title} data-status={diff.status} style={{ marginBottom: token("space.300") }}>
      <div style={{ display: "flex", gap: token("space.100"), alignItems: "center", marginBottom: token("space.100") }}>
        <strong>{title}</strong>
        <Lozenge appearance={lozenge.appearance}>{lozenge.text}</Lozenge>
      </div>
      <table style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed" }}>
        <thead>
          <tr>
            <th style={{ ...cell, width: "20%", textAlign: "left" }}>Field</th>
            <th style={{ ...cell, textAlign: "left" }}>Baseline 1</th>
            <th style={{ ...cell, textAlign: "left" }}>Baseline 2</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([field, label]) => {
            const isChanged = changed.has(field);
            const background = isChanged ? token("color.background.warning") : undefined;
            return (
              <tr key={field} data-field={field} data-changed={isChanged ? "true" : undefined}>
                <th scope="row" style={{ ...cell, textAlign: "left", background }}>
                  {label}
                </th>
                {field === "description" && isChanged && diff.baseline1 && diff.baseline2 ? (
                  <DescriptionDiff before={diff.baseline1.description} after={diff.baseline2.description} />
                ) : (
                  <>
                    <td style={{ ...cell, background }}>
                      <FieldValue projectId={projectId} field={field} revision={diff.baseline1} />
                    </td>
                    <td style={{ ...cell, background }}>
                      <FieldValue projectId={projectId} field={field} revision={diff.baseline2} />
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function DescriptionDiff({ before, after }: { before: string; after: string }) {
  const parts = wordDiff(before, after);
  const background = token("color.background.warning");
  return (
    <>
      <td style={{ ...cell, background, whiteSpace: "pre-wrap" }}>
        <Marked parts={parts.before} />
      </td>
      <td style={{ ...cell, background, whiteSpace: "pre-wrap" }}>
        <Marked parts={parts.after} />
      </td>
    </>
  );
}

/** Removed words struck through in red, added words underlined in green. */
export function Marked({ parts }: { parts: DiffPart[] }) {
  return parts.map((part, index) => {
    const key = `${index}-${part.kind}`;
    if (part.kind === "removed") {
      return (
        <del key={key} style={{ background: token("color.background.danger"), color: token("color.text.danger") }}>
          {part.text}
        </del>
      );
    }
    if (part.kind === "added") {
      return (
        <ins key={key} style={{ background: token("color.background.success"), color: token("color.text.success") }}>
          {part.text}
        </ins>
      );
    }
    return <span key={key}>{part.text}</span>;
  });
}

const None = () => <span style={{ color: token("color.text.subtlest") }}>None</span>;

function list(values: ReactNode[]): ReactNode {
  if (values.length === 0) return <None />;
  return (
    <ul style={{ margin: 0, paddingLeft: token("space.200") }}>
      {values.map((value, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a frozen list never reorders
        <li key={index}>{value}</li>
      ))}
    </ul>
  );
}

/** A compared field as the user knows it: Jira names for assignee, status, components and issues. */
function FieldValue({ projectId, field, revision }: { projectId: number; field: ComparedField; revision: BaselineRevision | null }) {
  if (!revision) return <None />;
  switch (field) {
    case "name":
      return <>{revision.name}</>;
    case "requirement_type_id":
      return <>{revision.requirement_type.name}</>;
    case "assigned_to":
      return <UserName accountId={revision.assigned_to?.account_id} />;
    case "status":
      return revision.status ? <StatusName statusId={revision.status.atlassian_status_id} /> : <None />;
    case "components":
      return <ComponentNames projectId={projectId} ids={revision.components.map((c) => c.atlassian_component_id)} />;
    case "description":
      return revision.description ? <span style={{ whiteSpace: "pre-wrap" }}>{revision.description}</span> : <None />;
    case "linked_requirements":
      return list(revision.linked_requirements.map((linked) => requirementLabel(linked)));
    case "issues":
      return <IssueNames ids={revision.issues.map((issue) => issue.atlassian_issue_id)} />;
    case "contents":
      return list(revision.contents.map((content) => `Page ${content.atlassian_content_id}`));
    case "attachments":
      return list(revision.attachments.map((attachment) => attachment.original_file_name));
    case "suspect_links":
      return <SuspectLinkNames revision={revision} />;
  }
}

/** Each suspect link by its other end as the other rows name it: a requirement's label, an issue's key; a page by its id. */
function SuspectLinkNames({ revision }: { revision: BaselineRevision }) {
  const issues = useIssuesByIds(revision.suspect_links.filter((mark) => mark.link_type === "issue").map((mark) => String(mark.target_id)));
  const linked = new Map(revision.linked_requirements.map((requirement) => [String(requirement.requirement_id), requirement]));
  return list(
    revision.suspect_links.map((mark) => {
      const requirement = mark.link_type === "requirement" ? linked.get(String(mark.target_id)) : undefined;
      const issue = mark.link_type === "issue" ? issues.data?.get(String(mark.target_id)) : undefined;
      const target = requirement ? requirementLabel(requirement) : (issue?.key ?? suspectTargetText(mark));
      return `${target} (since revision ${mark.since_revision})`;
    }),
  );
}

function StatusName({ statusId }: { statusId: string }) {
  const status = useStatus(statusId);
  return <>{status.data?.name ?? statusId}</>;
}

function ComponentNames({ projectId, ids }: { projectId: number; ids: string[] }) {
  const components = useProjectComponents(projectId);
  const names = new Map((components.data ?? []).map((component) => [component.id, component.name]));
  return list(ids.map((id) => names.get(id) ?? id));
}

function IssueNames({ ids }: { ids: string[] }) {
  const issues = useIssuesByIds(ids);
  return list(
    ids.map((id) => {
      const issue = issues.data?.get(id);
      return issue ? `${issue.key}: ${issue.fields.summary}` : id;
    }),
  );
}
