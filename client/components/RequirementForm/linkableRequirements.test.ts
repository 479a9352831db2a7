import { describe, expect, it } from "vitest";
import type { ListedRequirement } from "../../api/requirements.js";
import type { RequirementType } from "../../api/requirementTypes.js";
import { levelsAreAdjacent, linkableRequirements } from "./linkableRequirements.js";

const types: RequirementType[] = [
  { requirement_type_id: 1, name: "Business", prefix: "BUS", level: 1, level_editable: false },
  { requirement_type_id: 2, name: "System", prefix: "SYS", level: 2, level_editable: false },
  { requirement_type_id: 3, name: "Software", prefix: "SW", level: 3, level_editable: false },
  { requirement_type_id: 4, name: "Verification", prefix: "VER", level: 5, level_editable: true },
];

const listed = (requirementId: number, typeId: number): ListedRequirement => {
  const type = types.find((candidate) => candidate.requirement_type_id === typeId);
  return {
    type: "requirement",
    requirement_id: requirementId,
    prefix: type?.prefix ?? "",
    display_id: null,
    name: `R${requirementId}`,
    category: "HIGH_LEVEL",
    parent_folder_id: null,
    description: "",
    project: 10000,
    requirement_type_id: typeId,
    level: type?.level ?? 0,
  };
};

const candidates = [listed(1, 1), listed(2, 2), listed(3, 3), listed(4, 4), listed(5, 2)];
const ids = (list: ListedRequirement[]) => list.map((requirement) => requirement.requirement_id);

describe("which requirements may be linked", () => {
  it("accepts only levels one above or one below", () => {
    expect(levelsAreAdjacent(2, 1)).toBe(true);
    expect(levelsAreAdjacent(2, 3)).toBe(true);
    expect(levelsAreAdjacent(2, 2)).toBe(false);
    expect(levelsAreAdjacent(1, 3)).toBe(false);
  });

  it("accepts nothing when either side has no level", () => {
    expect(levelsAreAdjacent(null, 1)).toBe(false);
    expect(levelsAreAdjacent(1, undefined)).toBe(false);
  });

  it("offers the neighbours of a middle level", () => {
    expect(ids(linkableRequirements(candidates, types, 2))).toEqual([1, 3]);
  });

  it("offers only the level below for the top level", () => {
    expect(ids(linkableRequirements(candidates, types, 1))).toEqual([2, 5]);
  });

  it("offers nothing without a chosen type, or when no level is adjacent", () => {
    expect(linkableRequirements(candidates, types, null)).toEqual([]);
    expect(linkableRequirements(candidates, types, 4)).toEqual([]);
    expect(linkableRequirements(candidates, types, 99)).toEqual([]);
  });

  it("never offers the requirement itself", () => {
    expect(ids(linkableRequirements(candidates, types, 1, 5))).toEqual([2]);
  });
});
