import Button from "@atlaskit/button/new";
import SectionMessage from "@atlaskit/section-message";
import { token } from "@atlaskit/tokens";
import { Suspense, useState } from "react";
import { SUSPECT_MARKER } from "../../../common/labels.js";
import { type SuspectLink, useReviewSuspectLinks } from "../../api/requirements.js";
import { lazyNamed } from "../Lazy/lazyNamed.js";
import { suspectSummaryText } from "./suspectTargetText.js";

// The review dialog (and the modal it opens in) loads when a marker is first opened.
const SuspectReviewDialog = lazyNamed(() => import("./SuspectReviewDialog.js"), "SuspectReviewDialog");

/**
 * Issue 34: the warning marker beside a suspect link of the requirement's detail. Opening it shows
 * what changed since the link was last reviewed, with Mark as reviewed.
 */
export function SuspectMarker({
  requirementId,
  mark,
  linkLabel,
}: {
  requirementId: number;
  mark: SuspectLink | undefined;
  linkLabel: string;
}) {
  const [open, setOpen] = useState(false);
  if (!mark) return null;
  return (
    <>
      <Button
        appearance="warning"
        spacing="compact"
        aria-label={`Suspect link to ${linkLabel}: review the change`}
        onClick={() => setOpen(true)}
      >
        {SUSPECT_MARKER}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <SuspectReviewDialog requirementId={requirementId} mark={mark} linkLabel={linkLabel} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Above the details of a requirement with suspect links: how many, and Mark all reviewed. */
export function SuspectLinksSummary({ requirementId, marks }: { requirementId: number; marks: readonly SuspectLink[] }) {
  const review = useReviewSuspectLinks(requirementId);
  if (marks.length === 0) return null;
  const markAll = () => review.mutate({ all: true });
  return (
    <div style={{ marginTop: token("space.200") }}>
      <SectionMessage appearance="warning" title="Suspect links">
        <p>{suspectSummaryText(marks.length)} Open a marker to see the change.</p>
        <Button isLoading={review.isPending} onClick={markAll}>
          Mark all reviewed
        </Button>
      </SectionMessage>
    </div>
  );
}
