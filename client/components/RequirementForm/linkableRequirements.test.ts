import { describe, expect, it } from "vitest";
import type { RequirementType } from "../../api/requirementTypes.js";
import { linkableLevels } from "./linkableRequirements.js";

const types: RequirementType[] = [
  { requirement_type_id: 1, name: "Business", prefix: "BUS", level: 1, level_editable: false },
  { requirement_type_id: 2, name: "System", prefix: "SYS", level: 2, level_editable: false },
];

describe("which levels may be linked", () => {
  it("are the levels one above and one below the chosen type's", () => {
    expect(linkableLevels(types, 2)).toEqual([1, 3]);
    expect(linkableLevels(types, 1)).toEqual([0, 2]);
  });

  it("are none without a chosen type, or for a type the site does not have", () => {
    expect(linkableLevels(types, null)).toBeNull();
    expect(linkableLevels(types, 99)).toBeNull();
  });
});
