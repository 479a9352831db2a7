import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import type { ReactNode } from "react";
import { useProjectComponents, useStatus } from "../../api/jira/index.js";
import { GLOBAL_PROJECT_ID } from "../../api/projects.js";
import { useAttributes } from "../../api/attributes.js";
import { type RequirementDetail as Detail, useRequirement } from "../../api/requirements.js";
import { formatDate } from "../../format/date.js";
import { Attachments } from "../Attachments/Attachments.js";
import { LinkedIssues } from "../LinkedIssues/LinkedIssues.js";
import { RequirementActivity } from "../RequirementActivity/RequirementActivity.js";
import { requirementIdLabel, requirementLabel } from "../../../common/labels.js";
import { ATTRIBUTES_LOAD_ERROR, attributeText, componentNames, NONE, typeLabel } from "./detailValues.js";
import { LinkedContent } from "./LinkedContent.js";
import { UserName } from "./UserName.js";

export type RequirementDetailProps = {
  projectId: number;
  requirementId: number;
  onEdit(detail: Detail): void;
  onMove(detail: Detail): void;
  onDelete(detail: Detail): void;
  onOpenRequirement(requirementId: number): void;
};

export function RequirementDetail({ requirementId, ...props }: RequirementDetailProps) {
  const requirement = useRequirement(requirementId);
  if (requirement.isLoading) return <Spinner label="Loading requirement" />;
  if (!requirement.data) {
    return (
      <SectionMessage appearance="error">
        There was a problem loading your requirement. Please contact rmCloud support via the "Get help" button.
      </SectionMessage>
    );
  }
  return <RequirementDetailView detail={requirement.data} {...props} />;
}

const section = { marginTop: token("space.300") };

export function RequirementDetailView({
  detail,
  projectId,
  onEdit,
  onMove,
  onDelete,
  onOpenRequirement,
}: Omit<RequirementDetailProps, "requirementId"> & { detail: Detail }) {
  return (
    <article aria-label={requirementLabel(detail)}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-start", gap: token("space.200") }}>
        <Heading size="large">{detail.name}</Heading>
        <div style={{ display: "flex", gap: token("space.100") }}>
          <Button onClick={() => onEdit(detail)}>Edit</Button>
          <Button onClick={() => onMove(detail)}>Move</Button>
          <Button appearance="danger" onClick={() => onDelete(detail)}>
            Delete
          </Button>
        </div>
      </div>
      <DetailsTable detail={detail} projectId={projectId} />
      <section style={section}>
        <Heading size="small">Description</Heading>
        <p style={{ whiteSpace: "pre-wrap" }}>{detail.description?.trim() ? detail.description : NONE}</p>
      </section>
      <section style={section}>
        <Heading size="small">Linked requirements</Heading>
        {detail.linked_requirements_v2.length === 0 ? (
          <p>{NONE}</p>
        ) : (
          <ul>
            {detail.linked_requirements_v2.map((linked) => (
              <li key={linked.requirement_id}>
                <Button appearance="subtle" spacing="compact" onClick={() => onOpenRequirement(linked.requirement_id)}>
                  {requirementLabel(linked)}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section style={section}>
        <Heading size="small">Linked Issues</Heading>
        <LinkedIssues issueIds={detail.issues.map((issue) => String(issue.atlassian_issue_id))} />
      </section>
      <LinkedContent contentIds={detail.contents.map((content) => content.atlassian_content_id)} />
      <div style={section}>
        <Heading size="small">Attachments</Heading>
        <Attachments requirementId={detail.requirement_id} attachments={detail.attachments} />
      </div>
      <div style={section}>
        <RequirementActivity requirementId={detail.requirement_id} />
      </div>
    </article>
  );
}

const th = { textAlign: "left" as const, padding: `${token("space.050")} ${token("space.200")} ${token("space.050")} 0`, width: 160 };
const td = { padding: `${token("space.050")} 0` };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" style={th}>
        {label}
      </th>
      <td style={td}>{children}</td>
    </tr>
  );
}

function DetailsTable({ detail, projectId }: { detail: Detail; projectId: number }) {
  const isGlobal = projectId === GLOBAL_PROJECT_ID;
  const attributes = useAttributes(projectId);
  return (
    <>
      <table style={{ borderCollapse: "collapse", marginTop: token("space.200") }}>
        <tbody>
          <Row label="ID">{requirementIdLabel(detail)}</Row>
          <Row label="Type">{typeLabel(detail)}</Row>
          <Row label="Created">{formatDate(detail.created_at)}</Row>
          <Row label="Reporter">
            <UserName accountId={detail.created_by.account_id} />
          </Row>
          {isGlobal ? null : (
            <>
              <Row label="Assignee">
                <UserName accountId={detail.assigned_to?.account_id} />
              </Row>
              <Row label="Status">
                <StatusName statusId={detail.status?.atlassian_status_id} />
              </Row>
              <Row label="Components">
                <ComponentNames detail={detail} projectId={projectId} />
              </Row>
            </>
          )}
          {(attributes.data ?? []).map((attribute) => (
            <Row key={attribute.attribute_id} label={attribute.name}>
              {attributeText(attribute, detail.attributes[String(attribute.attribute_id)])}
            </Row>
          ))}
        </tbody>
      </table>
      {attributes.isError ? <SectionMessage appearance="error">{ATTRIBUTES_LOAD_ERROR}</SectionMessage> : null}
    </>
  );
}

function StatusName({ statusId }: { statusId: string | undefined }) {
  const status = useStatus(statusId);
  if (!statusId) return <>{NONE}</>;
  return <>{status.data?.name ?? statusId}</>;
}

function ComponentNames({ detail, projectId }: { detail: Detail; projectId: number }) {
  const components = useProjectComponents(projectId);
  return <>{componentNames(detail, components.data ?? [])}</>;
}
