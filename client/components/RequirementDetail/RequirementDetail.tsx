import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import type { ReactNode } from "react";
import { useProjectComponents, useStatus, useJiraUser } from "../../api/jira/index.js";
import { GLOBAL_PROJECT_ID } from "../../api/projects.js";
import { useAttributes } from "../../api/attributes.js";
import { type RequirementDetail as Detail, type LinkedRequirement, type SuspectLink, useRequirement } from "../../api/requirements.js";
import { SuspectLinksSummary, SuspectMarker } from "../SuspectLinks/SuspectLinks.js";
import { suspectMarkOf } from "../SuspectLinks/suspectTargetText.js";
import { formatDate } from "../../format/date.js";
import { useRequirementHref } from "../../hooks/useRequirementHref.js";
import { Attachments } from "../Attachments/Attachments.js";
import { LinkedIssues } from "../LinkedIssues/LinkedIssues.js";
import { RequirementActivity } from "../RequirementActivity/RequirementActivity.js";
import { RESTRICTED_REQUIREMENT, requirementIdLabel, requirementLabel } from "../../../common/labels.js";
import { ApiError } from "../../api/client.js";
import { NotFound } from "../NotFound/NotFound.js";
import { ASSIGNEES_LOAD_ERROR, ATTRIBUTES_LOAD_ERROR, COMPONENTS_LOAD_ERROR, STATUSES_LOAD_ERROR } from "../../api/loadErrors.js";
import { attributeText, componentNames, NONE, typeLabel } from "./detailValues.js";
import { LinkedContent } from "./LinkedContent.js";
import { UserName } from "./UserName.js";
import { Description } from "../Description/Description.js";

export type RequirementDetailProps = {
  requirementId: number;
  onEdit(detail: Detail): void;
  onMove(detail: Detail): void;
  onDelete(detail: Detail): void;
  onOpenRequirement(linked: LinkedRequirement): void;
};

export function RequirementDetail({ requirementId, ...props }: RequirementDetailProps) {
  const requirement = useRequirement(requirementId);
  if (requirement.isLoading) return <Spinner label="Loading requirement" />;
  if (requirement.error instanceof ApiError && requirement.error.status === 404) return <NotFound thing="requirement" />;
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
  onEdit,
  onMove,
  onDelete,
  onOpenRequirement,
}: Omit<RequirementDetailProps, "requirementId"> & { detail: Detail }) {
  // Links, as linked issues are, that open in the app and, in a new tab, on the requirement's Jira page.
  const hrefOf = useRequirementHref();
  const marker = (linkType: SuspectLink["link_type"], targetId: string | number, linkLabel: string) => (
    <SuspectMarker
      requirementId={detail.requirement_id}
      mark={suspectMarkOf(detail.suspect_links, linkType, targetId)}
      linkLabel={linkLabel}
    />
  );
  return (
    <article aria-label={requirementLabel(detail)}>
      <div
        style={{
          display: "flex",
          flexWrap: "wrap",
          justifyContent: "space-between",
          alignItems: "flex-start",
          gap: token("space.200"),
        }}
      >
        <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>
          <Heading size="large">{detail.name}</Heading>
        </div>
        <div style={{ display: "flex", gap: token("space.100") }}>
          <Button onClick={() => onEdit(detail)}>Edit</Button>
          <Button onClick={() => onMove(detail)}>Move</Button>
          <Button appearance="danger" onClick={() => onDelete(detail)}>
            Delete
          </Button>
        </div>
      </div>
      <SuspectLinksSummary requirementId={detail.requirement_id} marks={detail.suspect_links} />
      <DetailsTable detail={detail} />
      <section style={section}>
        <Heading size="small">Description</Heading>
        <Description text={detail.description} empty={NONE} />
      </section>
      <section style={section}>
        <Heading size="small">Linked requirements</Heading>
        {detail.linked_requirements_v2.length === 0 ? (
          <p>{NONE}</p>
        ) : (
          <ul>
            {detail.linked_requirements_v2.map((linked) => (
              <li key={linked.requirement_id}>
                {linked.restricted ? (
                  // Of a project the user may not browse in Jira: nothing to open.
                  <span>{RESTRICTED_REQUIREMENT}</span>
                ) : (
                  <a
                    href={hrefOf(linked) ?? "#"}
                    onClick={(event) => {
                      event.preventDefault();
                      onOpenRequirement(linked);
                    }}
                  >
                    {requirementLabel(linked)}
                  </a>
                )}{" "}
                {marker("requirement", linked.requirement_id, linked.restricted ? RESTRICTED_REQUIREMENT : requirementLabel(linked))}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section style={section}>
        <Heading size="small">Linked Issues</Heading>
        <LinkedIssues
          issueIds={detail.issues.map((issue) => String(issue.atlassian_issue_id))}
          markerOf={(issueId) => marker("issue", issueId, `issue ${issueId}`)}
        />
      </section>
      <LinkedContent
        contentIds={detail.contents.map((content) => content.atlassian_content_id)}
        markerOf={(contentId) => marker("content", contentId, `page ${contentId}`)}
      />
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

/** The requirement's own project decides its rows, whichever project's screen shows it. */
function DetailsTable({ detail }: { detail: Detail }) {
  const isGlobal = detail.project === GLOBAL_PROJECT_ID;
  const attributes = useAttributes(detail.project);
  // A failed lookup says so under the table; the rows then show the ids the host did not name.
  const reporter = useJiraUser(detail.created_by.account_id);
  const assignee = useJiraUser(isGlobal ? undefined : detail.assigned_to?.account_id);
  const status = useStatus(isGlobal ? undefined : detail.status?.atlassian_status_id);
  const components = useProjectComponents(detail.project);
  const failedLoads = [
    attributes.isError && ATTRIBUTES_LOAD_ERROR,
    (reporter.isError || assignee.isError) && ASSIGNEES_LOAD_ERROR,
    status.isError && STATUSES_LOAD_ERROR,
    components.isError && detail.components.length > 0 && COMPONENTS_LOAD_ERROR,
  ].filter((message): message is string => typeof message === "string");
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
              <Row label="Status">{detail.status ? (status.data?.name ?? detail.status.atlassian_status_id) : NONE}</Row>
              <Row label="Components">{components.isError ? componentIds(detail) : componentNames(detail, components.data ?? [])}</Row>
            </>
          )}
          {(attributes.data ?? []).map((attribute) => (
            <Row key={attribute.attribute_id} label={attribute.name}>
              {attributeText(attribute, detail.attributes[String(attribute.attribute_id)])}
            </Row>
          ))}
        </tbody>
      </table>
      {failedLoads.map((message) => (
        <SectionMessage key={message} appearance="error">
          {message}
        </SectionMessage>
      ))}
    </>
  );
}

function componentIds(detail: Detail): string {
  return detail.components.map((component) => component.atlassian_component_id).join(", ") || NONE;
}
