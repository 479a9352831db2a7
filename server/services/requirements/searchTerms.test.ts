import { describe, expect, it } from "vitest";
import { MATCH_END, MATCH_START } from "../../db/requirements/index.js";
import { highlightOf, searchTermsOf } from "./searchTerms.js";

const types = [
  { requirement_type_id: 1, prefix: "SYS" },
  { requirement_type_id: 2, prefix: "SW" },
  { requirement_type_id: 3, prefix: "sys" },
];

describe("what a typed search looks for", () => {
  it("reads a label as a type's prefix and the rest of the ID, and also as an ID and as words", () => {
    expect(searchTermsOf(" SYS-12 ", types)).toEqual({
      id: "sys-12",
      prefixed: [{ typeIds: [1, 3], rest: "12" }],
      words: "sys:* & 12:*",
    });
  });

  it("reads words of any script as prefixes, and no ID when there are spaces", () => {
    expect(searchTermsOf("Bremsweg über Straße", types)).toEqual({
      id: null,
      prefixed: [],
      words: "bremsweg:* & über:* & straße:*",
    });
  });

  it("keeps query syntax and wildcards out of the words", () => {
    expect(searchTermsOf("a&b|!c:*'", types).words).toBe("a:* & b:* & c:*");
    expect(searchTermsOf("%_", types)).toEqual({ id: "%_", prefixed: [], words: null });
  });

  it("looks for nothing when nothing is typed", () => {
    expect(searchTermsOf("   ", types)).toEqual({ id: null, prefixed: [], words: null });
  });
});

describe("highlights", () => {
  it("cuts the marked text into plain and found runs", () => {
    expect(highlightOf(`${MATCH_START}Braking${MATCH_END} distance on ${MATCH_START}wet${MATCH_END}`)).toEqual([
      { text: "Braking", match: true },
      { text: " distance on ", match: false },
      { text: "wet", match: true },
    ]);
  });
});
