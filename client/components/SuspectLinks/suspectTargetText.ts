import type { SuspectLink } from "../../../common/schemas/suspectLinks.js";

/** A suspect link's other end where no name is at hand: "Requirement 12", "Issue 10001", "Page 98765". */
export function suspectTargetText(mark: Pick<SuspectLink, "link_type" | "target_id">): string {
  const kind = mark.link_type === "requirement" ? "Requirement" : mark.link_type === "issue" ? "Issue" : "Page";
  return `${kind} ${mark.target_id}`;
}

/** The mark on the requirement's link of that kind to that target, if the link is suspect. */
export function suspectMarkOf<T extends Pick<SuspectLink, "link_type" | "target_id">>(
  marks: readonly T[],
  linkType: SuspectLink["link_type"],
  targetId: string | number,
): T | undefined {
  return marks.find((mark) => mark.link_type === linkType && String(mark.target_id) === String(targetId));
}

/** Spec-style wording of the warning above a requirement's details. */
export function suspectSummaryText(count: number): string {
  return count === 1
    ? "1 link is suspect: a requirement it joins changed since the link was last reviewed."
    : `${count} links are suspect: a requirement they join changed since they were last reviewed.`;
}
