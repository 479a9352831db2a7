import { describe, expect, it } from "vitest";
import { requirementCategory, requirementIdLabel, requirementLabel, requirementTypeLabel } from "./labels.js";

describe("requirement labels", () => {
  it("uses the prefix and the custom ID when there is one", () => {
    expect(requirementLabel({ prefix: "SYS", display_id: "BRK-1", requirement_id: 12, name: "Braking" })).toBe("SYS-BRK-1: Braking");
  });

  it("falls back to the numeric id without a custom ID, or with a blank one", () => {
    expect(requirementLabel({ prefix: "SYS", display_id: null, requirement_id: 12, name: "Braking" })).toBe("SYS-12: Braking");
    expect(requirementIdLabel({ prefix: "BR", display_id: "  ", requirement_id: 7 })).toBe("BR-7");
    expect(requirementIdLabel({ prefix: "BR", requirement_id: 7 })).toBe("BR-7");
  });

  it("shows the bare id when a type has no prefix", () => {
    expect(requirementIdLabel({ prefix: "", display_id: null, requirement_id: 7 })).toBe("7");
  });

  it("names a type by its name and prefix, as every type picker shows it", () => {
    expect(requirementTypeLabel({ name: "System", prefix: "SYS" })).toBe("System (SYS)");
    expect(requirementTypeLabel({ name: "Other", prefix: "" })).toBe("Other");
  });

  it("colours levels 1 and 2 as high level and deeper levels as low level", () => {
    expect([1, 2, 3, 4, 9].map(requirementCategory)).toEqual(["HIGH_LEVEL", "HIGH_LEVEL", "LOW_LEVEL", "LOW_LEVEL", "LOW_LEVEL"]);
  });
});
