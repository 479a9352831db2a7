import { diffWords } from "diff";

export type DiffPart = { text: string; kind: "same" | "removed" | "added" };

/**
 * A description's change word by word: the old text with the words taken out marked, and the
 * new text with the words put in marked (whitespace between words is kept as it was).
 */
export function wordDiff(before: string, after: string): { before: DiffPart[]; after: DiffPart[] } {
  const result: { before: DiffPart[]; after: DiffPart[] } = { before: [], after: [] };
  for (const change of diffWords(before, after)) {
    if (change.removed) result.before.push({ text: change.value, kind: "removed" });
    else if (change.added) result.after.push({ text: change.value, kind: "added" });
    else {
      result.before.push({ text: change.value, kind: "same" });
      result.after.push({ text: change.value, kind: "same" });
    }
  }
  return result;
}
