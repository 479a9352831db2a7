import { z } from "zod";
import { CONTENT_LIMIT_MESSAGE, MAX_LINKED_CONTENTS } from "../../../common/schemas/requirement.js";
import type { AttributeValue, CustomAttribute, RequirementDetail, RequirementInput } from "../../api/requirements.js";

/** Spec section 5: name and requirement type are required ('Required'); the custom ID is optional. */
export const requirementFormSchema = z.object({
  name: z.string().trim().min(1, "Required"),
  requirement_type_id: z
    .number()
    .nullable()
    .refine((typeId) => typeId !== null, "Required"),
  display_id: z.string().trim(),
  description: z.string(),
  linked_requirements: z.array(z.number()),
  status: z.string().nullable(),
  assigned_to: z.string().nullable(),
  components: z.array(z.string()),
  /** Linked Jira issue ids; issues of any project may be linked. */
  issues: z.array(z.string()),
  /** Linked Confluence page ids. */
  contents: z.array(z.string()).max(MAX_LINKED_CONTENTS, CONTENT_LIMIT_MESSAGE),
  /** A field the user has not touched holds no value at all: custom fields are optional. */
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.null()]).optional()),
});

export type RequirementFormValues = z.input<typeof requirementFormSchema>;

export const emptyRequirementForm: RequirementFormValues = {
  name: "",
  requirement_type_id: null,
  display_id: "",
  description: "",
  linked_requirements: [],
  status: null,
  assigned_to: null,
  components: [],
  issues: [],
  contents: [],
  attributes: {},
};

/** OK stays disabled while this is false. */
export function requirementFormFromDetail(detail: RequirementDetail): RequirementFormValues {
  return {
    name: detail.name,
    requirement_type_id: detail.requirement_type.requirement_type_id,
    display_id: detail.display_id ?? "",
    description: detail.description ?? "",
    linked_requirements: detail.linked_requirements_v2.map((linked) => linked.requirement_id),
    status: detail.status?.atlassian_status_id ?? null,
    assigned_to: detail.assigned_to?.account_id ?? null,
    components: detail.components.map((component) => component.atlassian_component_id),
    issues: detail.issues.map((issue) => issue.atlassian_issue_id),
    contents: detail.contents.map((content) => content.atlassian_content_id),
    attributes: { ...detail.attributes },
  };
}

/**
 * The request body of a validated form; the global project has no status, assignee or components.
 * Custom field values go only with the project's fields known (`attributes` undefined while they
 * load or when they failed): the form shows no fields then, and an empty map would delete every
 * stored value.
 */
export function requirementInputFromForm(
  values: RequirementFormValues,
  options: { isGlobal: boolean; attributes: readonly CustomAttribute[] | undefined; existing?: RequirementDetail },
): RequirementInput {
  const { requirement_type_id: typeId } = values;
  if (typeId === null) throw new Error("requirement type is required");
  const attributes = options.attributes && attributeValuesOf(values, options.attributes);
  return {
    name: values.name.trim(),
    description: values.description,
    display_id: values.display_id.trim() || null,
    requirement_type_id: typeId,
    status: options.isGlobal ? null : values.status,
    assigned_to: options.isGlobal ? null : values.assigned_to,
    components: options.isGlobal ? [] : values.components,
    issues: issuesToSend(values.issues, options.existing),
    contents: values.contents,
    attributes,
  };
}

function attributeValuesOf(values: RequirementFormValues, fields: readonly CustomAttribute[]): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const field of fields) {
    const value = values.attributes[String(field.attribute_id)];
    if (value !== null && value !== undefined && value !== "") attributes[String(field.attribute_id)] = value;
  }
  return attributes;
}

/**
 * An edit sends the linked issues only when the user changed them. Jira's issue_deleted webhook
 * removes a link without a new revision, so a form opened before it would otherwise link the
 * deleted issue again, its revision check passing.
 */
function issuesToSend(issues: string[], existing: RequirementDetail | undefined): string[] | undefined {
  if (!existing) return issues;
  const before = new Set(existing.issues.map((issue) => String(issue.atlassian_issue_id)));
  const unchanged = issues.length === before.size && issues.every((id) => before.has(id));
  return unchanged ? undefined : issues;
}
