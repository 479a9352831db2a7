import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { requirementLabel } from "../../../common/labels.js";
import { useAttributes } from "../../api/attributes.js";
import { type SuspectChange, type SuspectLink, useReviewSuspectLinks, useSuspectChange } from "../../api/requirements.js";
import { formatDate } from "../../format/date.js";
import { Marked } from "../BaselineDiff/RequirementDiffTable.js";
import { wordDiff } from "../BaselineDiff/wordDiff.js";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { attributeText, NONE } from "../RequirementDetail/detailValues.js";
import { UserName } from "../RequirementDetail/UserName.js";

export type SuspectReviewDialogProps = { requirementId: number; mark: SuspectLink; linkLabel: string; onClose(): void };

/**
 * One suspect link under review: the changed requirement before the change that made the link
 * suspect and now, word by word (the baseline comparison's diff), and Mark as reviewed.
 */
export function SuspectReviewDialog({ requirementId, mark, linkLabel, onClose }: SuspectReviewDialogProps) {
  const change = useSuspectChange(requirementId, mark, true);
  const review = useReviewSuspectLinks(requirementId);
  const { isSubmitting, submit } = useSubmitting(onClose);
  const markReviewed = () => submit(() => review.mutateAsync({ link_type: mark.link_type, target_id: mark.target_id }));
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="large">
      <ModalHeader>
        <ModalTitle appearance="warning">Suspect link to {linkLabel}</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <p>
          Changed in revision {mark.since_revision} on {formatDate(mark.changed_at)} by <UserName accountId={mark.changed_by.account_id} />.
          What changed since the link was last reviewed:
        </p>
        {change.isLoading ? <Spinner label="Loading the change" /> : null}
        {change.isError ? <SectionMessage appearance="error">The change could not be loaded. Close and try again.</SectionMessage> : null}
        {change.data ? <ChangeTable change={change.data} /> : null}
      </ModalBody>
      <DialogFooter label="Mark as reviewed" isSubmitting={isSubmitting} onConfirm={markReviewed} onCancel={onClose} />
    </Modal>
  );
}

const cell = {
  padding: token("space.075"),
  verticalAlign: "top",
  borderBottom: `1px solid ${token("color.border")}`,
  textAlign: "left",
} as const;

/** The fields whose change makes links suspect: name, type, description and custom fields, before and now. */
function ChangeTable({ change }: { change: SuspectChange }) {
  const { before, after } = change;
  const attributes = useAttributes(after.project);
  const fieldText = (attributeId: number, values: Record<string, string> | undefined) => {
    const attribute = attributes.data?.find((candidate) => candidate.attribute_id === attributeId);
    const value = values?.[String(attributeId)];
    return attribute ? attributeText(attribute, value) : (value ?? NONE);
  };
  const attributeIds = [...new Set([...Object.keys(before?.attributes ?? {}), ...Object.keys(after.attributes)])]
    .map(Number)
    .sort((a, b) => a - b);
  const rows: { label: string; before: string; after: string }[] = [
    { label: "Name", before: before?.name ?? "", after: after.name },
    { label: "Type", before: before?.requirement_type.name ?? "", after: after.requirement_type.name },
    { label: "Description", before: before?.description ?? "", after: after.description },
    ...attributeIds.map((attributeId) => ({
      label: attributes.data?.find((candidate) => candidate.attribute_id === attributeId)?.name ?? `Custom field ${attributeId}`,
      before: before ? fieldText(attributeId, before.attributes) : "",
      after: fieldText(attributeId, after.attributes),
    })),
  ];
  return (
    <table aria-label={`Changes of ${requirementLabel(after)}`} style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed" }}>
      <thead>
        <tr>
          <th style={{ ...cell, width: "20%" }}>{requirementLabel(after)}</th>
          <th style={cell}>When last reviewed</th>
          <th style={cell}>Now</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const parts = wordDiff(row.before, row.after);
          const changed = row.before !== row.after;
          const background = changed ? token("color.background.warning") : undefined;
          return (
            <tr key={row.label} data-changed={changed ? "true" : undefined}>
              <th scope="row" style={{ ...cell, background }}>
                {row.label}
              </th>
              <td style={{ ...cell, background, whiteSpace: "pre-wrap" }}>
                <Marked parts={parts.before} />
              </td>
              <td style={{ ...cell, background, whiteSpace: "pre-wrap" }}>
                <Marked parts={parts.after} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
