import { describe, expect, it } from "vitest";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { resolveForm } from "../../../test/helpers/formResolver.js";
import { type ImportFormValues, importFormSchema, importRequest } from "./importForm.js";

const chosen: ImportFormValues = {
  file: new File(["Name\nAlarm\n"], "jira.csv", { type: "text/csv" }),
  requirement_type: 2,
  location: 7,
  ancestors: [3],
  additional_headers: ["Sprint"],
  assign_based_on_component: true,
  left_out_columns: ["status"],
  leave_out_unknown_names: true,
  sheet: null,
};
const upload = {
  fileName: "0f8fad5b-d9cb-469f-a165-70867728950e.csv",
  projectId: 10000,
  components: [{ id: "1", name: "Pump" }],
  statuses: [{ id: "3", name: "Open" }],
};

/** The messages the dialog shows at its fields: what the form's resolver makes of the schema's issues. */
const messagesOf = async (values: Partial<ImportFormValues>) => (await resolveForm(importFormSchema, { ...chosen, ...values })).messages;

describe("the import dialog's form", () => {
  it("asks for a file and a requirement type with the spec's messages", async () => {
    expect(await messagesOf({ file: undefined, requirement_type: undefined })).toEqual({
      file: "No file selected",
      requirement_type: "Required",
    });
    expect(await messagesOf({})).toEqual({});
  });

  it("sends the choices as POST /api/import-issues's fields, which the server's schema accepts", () => {
    const choices = importFormSchema.parse(chosen);
    const request = importRequest(choices, upload);
    expect(request).toEqual({
      file_name: upload.fileName,
      requirement_type: 2,
      location: 7,
      atlassian_project_id: 10000,
      atlassian_component_json: JSON.stringify(upload.components),
      atlassian_statuses_json: JSON.stringify(upload.statuses),
      additional_headers: ["Sprint"],
      assign_based_on_component: true,
      left_out_columns: ["status"],
      leave_out_unknown_names: true,
    });
    expect(ImportRequestSchema.parse(request)).toMatchObject({ requirement_type: 2, location: 7, sheet: null });
  });

  it("names the workbook's sheet only when one was chosen, and the top level as null", () => {
    const request = importRequest(importFormSchema.parse({ ...chosen, location: null, sheet: "Requirements" }), upload);
    expect(request).toMatchObject({ sheet: "Requirements", location: null });
    expect(ImportRequestSchema.parse(request)).toMatchObject({ sheet: "Requirements", location: null });
  });
});
