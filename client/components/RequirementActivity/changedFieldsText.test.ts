import { describe, expect, it } from "vitest";
import { changedFieldsText } from "./changedFieldsText.js";

describe("the Activity list's changed fields", () => {
  it("names each field by the form's label, separated by a comma and a space", () => {
    expect(changedFieldsText("name,description")).toBe("Name, Description");
    expect(changedFieldsText("requirement_type_id,assigned_to,linked_requirements")).toBe("Type, Assignee, Linked requirements");
    expect(changedFieldsText("display_id,status,components,issues,contents,attributes,attachments,parent_folder_id")).toBe(
      "Custom ID, Status, Components, Linked issues, Linked Confluence content, Custom fields, Attachments, Folder",
    );
  });

  it("shows None when a revision names no field", () => {
    expect(changedFieldsText("")).toBe("None");
  });
});
