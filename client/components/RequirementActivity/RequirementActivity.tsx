import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { formatDate } from "../../format/date.js";
import { type Revision, useRequirementRevisions } from "../../api/requirements.js";
import { ACTIVITY_LOAD_ERROR } from "../../api/loadErrors.js";
import { UserName } from "../RequirementDetail/UserName.js";
import { suspectTargetText } from "../SuspectLinks/suspectTargetText.js";
import { changedFieldsText } from "./changedFieldsText.js";

/** Newest first: what changed last is what a reader looks for (a review after the revision it reviewed). */
export function revisionsNewestFirst(revisions: readonly Revision[]): Revision[] {
  return [...revisions].sort((left, right) => right.revision - left.revision || right.created_at.localeCompare(left.created_at));
}

/** Spec section 2, Activity: revision number, date, user, action, changed fields. */
export function RequirementActivity({ requirementId }: { requirementId: number }) {
  const revisions = useRequirementRevisions(requirementId);
  return (
    <section aria-labelledby={`activity-${requirementId}`}>
      <Heading size="small" id={`activity-${requirementId}`}>
        Activity
      </Heading>
      {revisions.isLoading ? <Spinner size="small" label="Loading activity" /> : null}
      {revisions.isError ? <SectionMessage appearance="error">{ACTIVITY_LOAD_ERROR}</SectionMessage> : null}
      {revisions.items ? <ActivityTable revisions={revisionsNewestFirst(revisions.items)} /> : null}
      {revisions.hasMore ? (
        <Button appearance="subtle" isLoading={revisions.isLoadingMore} onClick={revisions.loadMore}>
          Show older activity
        </Button>
      ) : null}
    </section>
  );
}

// Cells wrap, anywhere if they must, so that the table fits a narrow frame instead of cutting off "Changed fields".
const cell = {
  padding: `${token("space.075")} ${token("space.100")}`,
  textAlign: "left" as const,
  verticalAlign: "top",
  borderBottom: `1px solid ${token("color.border")}`,
  overflowWrap: "anywhere" as const,
};

export function ActivityTable({ revisions }: { revisions: readonly Revision[] }) {
  if (revisions.length === 0) return <p>None</p>;
  return (
    <table style={{ borderCollapse: "collapse", width: "100%", marginTop: token("space.100") }}>
      <thead>
        <tr>
          <th style={cell}>Revision</th>
          <th style={cell}>Date</th>
          <th style={cell}>User</th>
          <th style={cell}>Action</th>
          <th style={cell}>Changed fields</th>
        </tr>
      </thead>
      <tbody>
        {revisions.map((revision) => (
          <tr key={`${revision.revision}-${revision.action}-${revision.created_at}`}>
            <td style={cell}>{revision.revision}</td>
            <td style={cell}>{formatDate(revision.created_at)}</td>
            <td style={cell}>
              <UserName accountId={revision.account_id} />
            </td>
            <td style={cell}>{revision.action}</td>
            <td style={cell}>
              {revision.reviewed_link
                ? `Suspect link to ${suspectTargetText(revision.reviewed_link)} marked as reviewed`
                : changedFieldsText(revision.changed_fields)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
