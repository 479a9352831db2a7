import { describe, expect, it } from "vitest";
import { CreateBaselineSchema } from "../../../common/schemas/baseline.js";
import { baselineRequest } from "./baselineRequest.js";

const form = { name: "  Release 1 ", description: "Frozen for the audit", folderId: 7, requirementIds: [3, 4] };

describe("baselineRequest", () => {
  it("sends each scope as the spec's fields, which the server's schema accepts", () => {
    expect(baselineRequest({ ...form, scope: "all" })).toEqual({
      name: "Release 1",
      description: "Frozen for the audit",
      select_all_requirements: true,
      select_from_parent_folder: false,
      select_from_parent_folder_id: null,
      requirements: [],
    });
    expect(baselineRequest({ ...form, scope: "folder" })).toMatchObject({
      select_all_requirements: false,
      select_from_parent_folder: true,
      select_from_parent_folder_id: 7,
      requirements: [],
    });
    expect(baselineRequest({ ...form, scope: "individual" })).toMatchObject({
      select_all_requirements: false,
      select_from_parent_folder: false,
      select_from_parent_folder_id: null,
      requirements: [3, 4],
    });
    for (const scope of ["all", "folder", "individual"] as const) {
      expect(CreateBaselineSchema.safeParse({ ...baselineRequest({ ...form, scope }), project: 10000 }).success).toBe(true);
    }
  });
});
