import { requirementCategory, requirementLabel } from "../../../common/labels.js";
import type { RequirementListItem } from "../../../common/schemas/item.js";
import type { LinkedRequirement, RequirementDetail, RequirementLite, RequirementSnapshot } from "../../../common/schemas/requirement.js";
import {
  findRequirementDetails,
  type LinkedRequirementRow,
  type RequirementDetailRow,
  type RequirementItemRow,
  type RequirementListRow,
} from "../../db/requirements/index.js";
import type { SuspectLinkRow } from "../../db/suspectLinkStore.js";
import type { SuspectLink } from "../../../common/schemas/suspectLinks.js";
import type { Actor, ServiceDeps } from "../context.js";
import type { RequirementEventState } from "../../../common/schemas/requirementSaved.js";

export const toListItem = (row: RequirementItemRow): RequirementListItem => ({
  type: "requirement",
  requirement_id: row.requirement_id,
  display_id: row.display_id,
  prefix: row.prefix,
  name: row.name,
  category: requirementCategory(row.level),
  parent_folder_id: row.parent_folder_id,
});

export const toLite = (row: RequirementListRow, { withDescription = false } = {}): RequirementLite => ({
  ...toListItem(row),
  ...(withDescription ? { description: row.description } : {}),
  project: row.project_id,
  requirement_type_id: row.requirement_type_id,
  level: row.level,
  has_suspect_links: row.has_suspect_links,
  ...(row.issue_link_suspect === undefined ? {} : { issue_link_suspect: row.issue_link_suspect }),
});

const toLinked = (row: LinkedRequirementRow): LinkedRequirement => ({
  requirement_id: row.requirement_id,
  prefix: row.prefix,
  display_id: row.display_id,
  name: row.name,
  project: row.project_id,
  requirement_type_id: row.requirement_type_id,
  level: row.level,
});

/** Full details of many requirements in one query, in id order. */
export async function loadRequirementDetails(
  deps: ServiceDeps,
  actor: Actor,
  requirementIds: number[],
  options: { includeDeleted?: boolean } = {},
): Promise<RequirementDetail[]> {
  const rows = await findRequirementDetails(deps.db, actor.tenantId, requirementIds, options);
  return rows.map(toDetail);
}

export const toDetail = (row: RequirementDetailRow): RequirementDetail => ({
  requirement_id: row.requirement_id,
  display_id: row.display_id,
  prefix: row.prefix,
  name: row.name,
  description: row.description,
  requirement_type: {
    requirement_type_id: row.requirement_type_id,
    name: row.type_name,
    prefix: row.prefix,
    level: row.level,
  },
  created_at: row.created_at.toISOString(),
  created_by: { account_id: row.created_by },
  assigned_to: row.assigned_to === null ? null : { account_id: row.assigned_to },
  status: row.status_id === null ? null : { atlassian_status_id: row.status_id },
  components: row.components.map((id) => ({ atlassian_component_id: id })),
  issues: row.issues.map((id) => ({ atlassian_issue_id: id })),
  contents: row.contents.map((id) => ({ atlassian_content_id: id })),
  linked_requirements_v2: row.linked.map(toLinked),
  attributes: row.attributes,
  attachments: row.attachments,
  parent_folder_id: row.parent_folder_id,
  project: row.project_id,
  revision: row.revision,
  suspect_links: row.suspect_links.map(toSuspectLink),
});

/** A mark as the API names it: a requirement link's target is the other requirement's id, a number. */
export const toSuspectLink = (row: SuspectLinkRow): SuspectLink => ({
  link_type: row.link_type,
  target_id: row.link_type === "requirement" ? Number(row.target_id) : row.target_id,
  since_revision: row.since_revision,
  changed_by: { account_id: row.changed_by },
  changed_at: row.changed_at.toISOString(),
});

export function snapshotOf(detail: RequirementDetail, deleted = false): RequirementSnapshot {
  return {
    requirement_id: detail.requirement_id,
    prefix: detail.prefix,
    display_id: detail.display_id,
    name: detail.name,
    description: detail.description,
    assigned_to: detail.assigned_to,
    components: detail.components,
    issues: detail.issues,
    status: detail.status,
    contents: detail.contents,
    requirement_type_id: detail.requirement_type.requirement_type_id,
    requirement_type: detail.requirement_type,
    linked_requirements: detail.linked_requirements_v2,
    attachments: detail.attachments,
    attributes: detail.attributes,
    parent_folder_id: detail.parent_folder_id,
    project: detail.project,
    deleted,
  };
}

export function eventStateOf(detail: RequirementDetail): RequirementEventState {
  return {
    requirementId: detail.requirement_id,
    projectId: detail.project,
    label: requirementLabel(detail),
    name: detail.name,
    statusId: detail.status?.atlassian_status_id ?? null,
    assignedTo: detail.assigned_to?.account_id ?? null,
    issueIds: detail.issues.map((issue) => issue.atlassian_issue_id),
  };
}

/**
 * The changed fields of a requirement's 'created' revision: those it was created with a value for.
 * The import's SQL lists the same (db/requirements/bulkInsert.ts; importRequirements.db.test.ts checks it against this).
 */
export function filledFields(detail: RequirementDetail): string[] {
  return [
    "name",
    "requirement_type_id",
    ...(detail.display_id ? ["display_id"] : []),
    ...(detail.description ? ["description"] : []),
    ...(detail.assigned_to ? ["assigned_to"] : []),
    ...(detail.status ? ["status"] : []),
    ...(detail.components.length ? ["components"] : []),
    ...(detail.issues.length ? ["issues"] : []),
    ...(detail.contents.length ? ["contents"] : []),
    ...(detail.linked_requirements_v2.length ? ["linked_requirements"] : []),
    ...(Object.keys(detail.attributes).length ? ["attributes"] : []),
  ];
}
