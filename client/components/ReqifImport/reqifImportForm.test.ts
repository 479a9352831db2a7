import { describe, expect, it } from "vitest";
import { type ReqifPreview, ReqifImportRequestSchema } from "../../../common/schemas/reqif.js";
import { resolveForm } from "../../../test/helpers/formResolver.js";
import { NEW_TYPE, type ReqifImportFormValues, reqifImportDefaults, reqifImportFormSchema, reqifImportRequest } from "./reqifImportForm.js";

const objectType = (identifier: string, long_name: string) => ({ identifier, long_name, attribute_definitions: [] });
const preview: ReqifPreview = {
  specifications: [{ identifier: "spec-1", long_name: "Pump", object_count: 2 }],
  spec_object_types: [objectType("type-1", "Business Requirement"), objectType("type-2", "Safety Goal")],
  object_count: 2,
  relation_count: 0,
};
const existing = [{ requirement_type_id: 4, name: " business requirement", prefix: "BR", level: 1, level_editable: false }];
const upload = { projectId: 10000, fileName: "0f8fad5b-d9cb-469f-a165-70867728950e.reqif", originalFileName: "pump.reqif" };

/** The messages the dialog shows at each object type's prefix. */
const prefixMessages = async (values: ReqifImportFormValues) => {
  const { errors } = await resolveForm(reqifImportFormSchema, values);
  return values.types.map((_, index) => errors.types?.[index]?.prefix?.message);
};

describe("the ReqIF import dialog's form", () => {
  it("maps each object type onto the requirement type of its name, else onto a new type with a prefix from its name", () => {
    expect(reqifImportDefaults(preview, existing, 7)).toEqual({
      types: [
        { identifier: "type-1", long_name: "Business Requirement", requirement_type: 4, prefix: "BR" },
        { identifier: "type-2", long_name: "Safety Goal", requirement_type: NEW_TYPE, prefix: "SG" },
      ],
      parent_folder_id: 7,
      ancestors: [],
    });
  });

  it("asks for a new type's prefix with the rules of a requirement type's, and ignores the prefix of an existing type", async () => {
    const defaults = reqifImportDefaults(preview, existing, null);
    const withPrefixes = (first: string, second: string): ReqifImportFormValues => ({
      ...defaults,
      types: [
        { ...defaults.types[0], prefix: first },
        { ...defaults.types[1], prefix: second },
      ] as ReqifImportFormValues["types"],
    });
    expect(await prefixMessages(withPrefixes("", "  "))).toEqual([undefined, "Required"]);
    expect(await prefixMessages(withPrefixes("", "SAFETYGOALS"))).toEqual([undefined, "Enter no more than 10 characters"]);
    expect(await prefixMessages(withPrefixes("", "SG"))).toEqual([undefined, undefined]);
  });

  it("sends the choices as POST /api/import-reqif's fields, keyed by each object type's identifier", async () => {
    const { values } = await resolveForm(reqifImportFormSchema, { ...reqifImportDefaults(preview, existing, 7), ancestors: [3] });
    const request = reqifImportRequest(values, upload);
    expect(request).toEqual({
      atlassian_project_id: 10000,
      file_name: upload.fileName,
      original_file_name: "pump.reqif",
      parent_folder_id: 7,
      mapping: { spec_object_types: { "type-1": { requirement_type_id: 4 }, "type-2": { name: "Safety Goal", prefix: "SG" } } },
    });
    expect(ReqifImportRequestSchema.parse(request)).toEqual(request);
  });
});
