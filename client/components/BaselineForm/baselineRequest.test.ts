import { describe, expect, it } from "vitest";
import { CreateBaselineSchema } from "../../../common/schemas/baseline.js";
import { baselineFormSchema, baselineRequest } from "./baselineRequest.js";

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

  it("is complete only with a name, and with the folder or requirements its scope needs", () => {
    const problems = (values: Parameters<typeof baselineRequest>[0]) =>
      baselineFormSchema.safeParse(values).error?.issues.map((issue) => issue.message) ?? [];
    expect(problems({ ...form, scope: "all" })).toEqual([]);
    expect(problems({ ...form, name: "   ", scope: "all" })).toEqual(["Name is required"]);
    expect(problems({ ...form, folderId: null, scope: "folder" })).toEqual(["Choose a folder"]);
    expect(problems({ ...form, requirementIds: [], scope: "individual" })).toEqual(["Choose at least one requirement"]);
    expect(problems({ ...form, folderId: null, requirementIds: [], scope: "all" })).toEqual([]);
  });
});
