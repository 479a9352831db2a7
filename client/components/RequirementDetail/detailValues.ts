import type { AttributeValue, CustomAttribute, RequirementDetail } from "../../api/requirements.js";

export const NONE = "None";
export const ATTRIBUTE_OPTION_MISSING =
  'Error retrieving field data from rmCloud.  Please contact support with the "Get help" button below';

/** Type shown as '{type name} Requirement'. */
export function typeLabel(detail: Pick<RequirementDetail, "requirement_type">): string {
  return `${detail.requirement_type.name} Requirement`;
}

/** A custom field's value as the details table shows it: text, or the chosen option's name. */
export function attributeText(attribute: CustomAttribute, value: AttributeValue | null | undefined): string {
  if (value === null || value === undefined || value === "") return NONE;
  if (attribute.type === "string") return String(value);
  const option = attribute.options.find((candidate) => candidate.attribute_option_id === Number(value));
  return option ? option.name : ATTRIBUTE_OPTION_MISSING;
}

/** Names of the requirement's components, in the project's order; 'None' without any. */
export function componentNames(
  detail: Pick<RequirementDetail, "components">,
  projectComponents: readonly { id: string; name: string }[],
): string {
  const ids = new Set(detail.components.map((component) => String(component.atlassian_component_id)));
  const names = projectComponents.filter((component) => ids.has(String(component.id))).map((c) => c.name);
  return names.length ? names.join(", ") : NONE;
}

/** The wiki page a content id names, on the site's Confluence (which lives under the site URL at /wiki). */
export function contentUrl(siteUrl: string, contentId: string): string {
  return `${siteUrl.replace(/\/+$/, "")}/wiki/pages/viewpage.action?pageId=${encodeURIComponent(contentId)}`;
}
