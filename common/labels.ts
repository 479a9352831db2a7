/**
 * How a requirement is named everywhere (tree, detail, links, matrix, macros, comments).
 * Spec section 3: prefix, then display_id or else requirement_id, then a colon and the name.
 * We join prefix and id with a hyphen and put one space after the colon: "SYS-12: Name",
 * "SYS-CUSTOM-7: Name" (docs/decisions.md).
 */
export type LabelledRequirement = {
  prefix: string;
  display_id?: string | null;
  requirement_id: number;
  name: string;
};

/** The ID cell of the details table: the type prefix plus the custom ID, or else the numeric id. */
export function requirementIdLabel(requirement: Omit<LabelledRequirement, "name">): string {
  const id = requirement.display_id?.trim() ? requirement.display_id.trim() : String(requirement.requirement_id);
  return requirement.prefix ? `${requirement.prefix}-${id}` : id;
}

export function requirementLabel(requirement: LabelledRequirement): string {
  return `${requirementIdLabel(requirement)}: ${requirement.name}`;
}

/** What a requirement of a project the person may not browse in Jira is shown as (a link to it from a visible one). */
export const RESTRICTED_REQUIREMENT = "Restricted requirement";

/**
 * Issue 34: how a suspect link is marked where it is listed (the exports' marker, the screens'
 * tooltip): the requirement changed since the link was last reviewed.
 */
export const SUSPECT_MARKER = "⚠ Suspect";

/** A requirement type in every picker that offers types: its name and prefix, "System (SYS)". */
export function requirementTypeLabel(type: { name: string; prefix: string }): string {
  return type.prefix ? `${type.name} (${type.prefix})` : type.name;
}

/**
 * The icon colour of a tree item. Levels 1 and 2 (business and stakeholder needs by default)
 * are HIGH_LEVEL; level 3 and below (system, software) are LOW_LEVEL.
 */
export function requirementCategory(level: number): "HIGH_LEVEL" | "LOW_LEVEL" {
  return level <= 2 ? "HIGH_LEVEL" : "LOW_LEVEL";
}
