import { describe, expect, it } from "vitest";
import { updateBody } from "./requirementTypeMutations.js";

const type = { requirement_type_id: 3, name: "System", prefix: "SYS", level: 3, level_editable: true };

describe("the requirement type update", () => {
  it("sends the level of an editable type", () => {
    expect(updateBody(type, { level: 4 })).toEqual({ requirement_type: { name: "System", prefix: "SYS", level: 4 } });
  });

  it("leaves the level out for a type whose level is fixed", () => {
    expect(updateBody({ ...type, level_editable: false }, { name: "Platform" })).toEqual({
      requirement_type: { name: "Platform", prefix: "SYS" },
    });
  });
});
