/** The typed text of a search, parsed into what the store looks for, and its answer's highlights. */
import type { Highlight } from "../../../common/schemas/requirementSearch.js";
import { MATCH_END, MATCH_START, type SearchTerms } from "../../db/requirements/index.js";
import type { RequirementTypeRow } from "../../db/requirementTypeStore.js";

/** More words than this add nothing a person would type into a picker; the rest are ignored. */
const MAX_WORDS = 8;

/**
 * "SYS-12" looks for the requirement labelled so (a type with prefix SYS, ID 12 or starting with 12),
 * for the custom ID "sys-12" and for the words "sys" and "12"; "SYS-" lists the type's requirements;
 * "brake dist" finds names and descriptions with words starting "brake" and "dist". Words are split
 * as letters and digits (any script), each matched as the start of a word.
 */
export function searchTermsOf(text: string, types: readonly Pick<RequirementTypeRow, "requirement_type_id" | "prefix">[]): SearchTerms {
  const typed = text.trim().toLowerCase();
  if (typed === "") return { id: null, prefixed: [], words: null };
  const byRest = new Map<string, number[]>();
  for (const type of types) {
    const prefix = `${type.prefix.toLowerCase()}-`;
    if (type.prefix === "" || !typed.startsWith(prefix)) continue;
    const rest = typed.slice(prefix.length);
    byRest.set(rest, [...(byRest.get(rest) ?? []), type.requirement_type_id]);
  }
  const words = (typed.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
  return {
    id: /\s/.test(typed) ? null : typed,
    prefixed: [...byRest].map(([rest, typeIds]) => ({ typeIds, rest })),
    words: words.length === 0 ? null : words.map((word) => `${word}:*`).join(" & "),
  };
}

/** ts_headline's text (found words between the store's markers) as runs of plain and found text. */
export function highlightOf(marked: string): Highlight {
  const runs: Highlight = [];
  for (const [index, part] of marked.split(MATCH_START).entries()) {
    const [found, after] = index === 0 ? [null, part] : splitOnce(part, MATCH_END);
    if (found) runs.push({ text: found, match: true });
    if (after) runs.push({ text: after, match: false });
  }
  return runs;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + separator.length)];
}
