/** Each field a revision names, by the label the requirement's form and detail give it. */
const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  requirement_type_id: "Type",
  display_id: "Custom ID",
  description: "Description",
  status: "Status",
  assigned_to: "Assignee",
  components: "Components",
  issues: "Linked issues",
  contents: "Linked Confluence content",
  linked_requirements: "Linked requirements",
  attributes: "Custom fields",
  attachments: "Attachments",
  parent_folder_id: "Folder",
};

/** The API's comma-separated field names, readable: the labels the user knows them by. */
export function changedFieldsText(changedFields: string | null | undefined): string {
  const names = (changedFields ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length === 0 ? "None" : names.map((name) => FIELD_LABELS[name] ?? name).join(", ");
}
