import type { Knex } from "knex";
import type { Db } from "./knex.js";

/** A requirement row with its type, as the tree, pickers and the detail need it. */
export type RequirementRow = {
  requirement_id: number;
  project_id: number;
  parent_folder_id: number | null;
  requirement_type_id: number;
  type_name: string;
  prefix: string;
  level: number;
  display_id: string | null;
  name: string;
  description: string;
  status_id: string | null;
  assigned_to: string | null;
  created_by: string;
  created_at: Date;
  revision: number;
  deleted_at: Date | null;
};

const toRow = (row: Record<string, unknown>): RequirementRow => ({
  requirement_id: Number(row.requirement_id),
  project_id: Number(row.project_id),
  parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
  requirement_type_id: Number(row.requirement_type_id),
  type_name: String(row.type_name),
  prefix: String(row.prefix),
  level: Number(row.level),
  display_id: row.display_id === null ? null : String(row.display_id),
  name: String(row.name),
  description: String(row.description ?? ""),
  status_id: row.status_id === null ? null : String(row.status_id),
  assigned_to: row.assigned_to === null ? null : String(row.assigned_to),
  created_by: String(row.created_by),
  created_at: new Date(row.created_at as string | Date),
  revision: Number(row.revision),
  deleted_at: row.deleted_at === null ? null : new Date(row.deleted_at as string | Date),
});

/** The type's prefix and level come in the same query (a join on the type's primary key). */
function selectRequirements(db: Db, tenantId: string, { includeDeleted = false } = {}): Knex.QueryBuilder {
  const query = db("requirements as r")
    .join("requirement_types as t", function () {
      this.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id");
    })
    .where("r.tenant_id", tenantId)
    .select(
      "r.requirement_id",
      "r.project_id",
      "r.parent_folder_id",
      "r.requirement_type_id",
      "t.name as type_name",
      "t.prefix",
      "t.level",
      "r.display_id",
      "r.name",
      "r.description",
      "r.status_id",
      "r.assigned_to",
      "r.created_by",
      "r.created_at",
      "r.revision",
      "r.deleted_at",
    );
  return includeDeleted ? query : query.whereNull("r.deleted_at");
}

/**
 * The top level and a set of folders in separate index scans: one query with
 * `parent IS NULL OR parent IN (...)` makes PostgreSQL read the whole project.
 */
export async function byParents(
  parentIds: (number | null)[],
  query: () => Knex.QueryBuilder,
  column: string,
): Promise<Record<string, unknown>[]> {
  const ids = parentIds.filter((id): id is number => id !== null);
  const top = ids.length < parentIds.length ? await query().whereNull(column) : [];
  const inFolders = ids.length > 0 ? await query().whereIn(column, ids) : [];
  return [...top, ...inFolders];
}

/** What a tree item shows: no description or dates, so a folder of thousands stays light. */
export type RequirementItemRow = Pick<
  RequirementRow,
  "requirement_id" | "parent_folder_id" | "display_id" | "name" | "prefix" | "level"
>;

/** Active requirements of a project under the given parents (null = the top level), by id. */
export async function listRequirementChildren(
  db: Db,
  tenantId: string,
  projectId: number,
  parentIds: (number | null)[],
): Promise<RequirementItemRow[]> {
  if (parentIds.length === 0) return [];
  const query = () =>
    db("requirements as r")
      .join("requirement_types as t", function () {
        this.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id");
      })
      .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
      .whereNull("r.deleted_at")
      .orderBy("r.requirement_id")
      .select("r.requirement_id", "r.parent_folder_id", "r.display_id", "r.name", "t.prefix", "t.level");
  const rows = await byParents(parentIds, query, "r.parent_folder_id");
  return rows.map((row: Record<string, unknown>) => ({
    requirement_id: Number(row.requirement_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    display_id: row.display_id === null ? null : String(row.display_id),
    name: String(row.name),
    prefix: String(row.prefix),
    level: Number(row.level),
  }));
}

export type RequirementFilter = {
  projectIds?: number[];
  issueId?: string;
  contentId?: string;
  requirementIds?: number[];
};

/** Active requirements matching every given filter, by project and id. */
export async function listRequirements(db: Db, tenantId: string, filter: RequirementFilter): Promise<RequirementRow[]> {
  const query = selectRequirements(db, tenantId);
  if (filter.projectIds) query.whereIn("r.project_id", filter.projectIds);
  if (filter.requirementIds) query.whereIn("r.requirement_id", filter.requirementIds);
  if (filter.issueId !== undefined) {
    query.whereExists(
      db("requirement_issue_links as i")
        .whereRaw("i.tenant_id = r.tenant_id AND i.requirement_id = r.requirement_id")
        .where("i.atlassian_issue_id", filter.issueId)
        .select(db.raw("1")),
    );
  }
  if (filter.contentId !== undefined) {
    query.whereExists(
      db("requirement_content_links as c")
        .whereRaw("c.tenant_id = r.tenant_id AND c.requirement_id = r.requirement_id")
        .where("c.atlassian_content_id", filter.contentId)
        .select(db.raw("1")),
    );
  }
  const rows = await query.orderBy([{ column: "r.project_id" }, { column: "r.requirement_id" }]);
  return rows.map(toRow);
}

export async function findRequirements(
  db: Db,
  tenantId: string,
  requirementIds: number[],
  options: { includeDeleted?: boolean; forUpdate?: boolean } = {},
): Promise<RequirementRow[]> {
  if (requirementIds.length === 0) return [];
  const query = selectRequirements(db, tenantId, options).whereIn("r.requirement_id", requirementIds).orderBy("r.requirement_id");
  if (options.forUpdate) query.forUpdate("r");
  return (await query).map(toRow);
}

/** A linked requirement as the detail lists it. */
export type LinkedRequirementRow = Pick<
  RequirementRow,
  "requirement_id" | "project_id" | "requirement_type_id" | "prefix" | "level" | "display_id" | "name"
>;

/** A requirement with everything hanging off it. */
export type RequirementDetailRow = RequirementRow & {
  components: string[];
  issues: string[];
  contents: string[];
  attributes: Record<string, string>;
  attachments: { original_file_name: string; uuid_file_name: string }[];
  /** Active requirements linked either way, by id. */
  linked: LinkedRequirementRow[];
};

/** A json column as pg (parsed) or PGlite (parsed or text) hands it over; SQL NULL is the fallback. */
export const asJson = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined ? fallback : ((typeof value === "string" ? JSON.parse(value) : value) as T);

const toLinkedRow = (row: Record<string, unknown>): LinkedRequirementRow => ({
  requirement_id: Number(row.requirement_id),
  project_id: Number(row.project_id),
  requirement_type_id: Number(row.requirement_type_id),
  prefix: String(row.prefix),
  level: Number(row.level),
  display_id: row.display_id === null || row.display_id === undefined ? null : String(row.display_id),
  name: String(row.name),
});

/**
 * Requirements with their relations and linked requirements in one round trip (one aggregate
 * subquery per table), in id order: the detail is read on every selection in the tree.
 */
export async function findRequirementDetails(
  db: Db,
  tenantId: string,
  requirementIds: number[],
  options: { includeDeleted?: boolean } = {},
): Promise<RequirementDetailRow[]> {
  if (requirementIds.length === 0) return [];
  const ids = (table: string) => `FROM ${table} x WHERE x.tenant_id = r.tenant_id AND x.requirement_id = r.requirement_id`;
  // Links are stored once per pair, so both directions are read, each through its own index.
  const linked = `(SELECT json_agg(json_build_object(
      'requirement_id', o.requirement_id, 'project_id', o.project_id, 'requirement_type_id', o.requirement_type_id,
      'prefix', ot.prefix, 'level', ot.level, 'display_id', o.display_id, 'name', o.name) ORDER BY o.requirement_id)
    FROM (SELECT l.linked_requirement_id AS other FROM requirement_links l WHERE l.tenant_id = r.tenant_id AND l.requirement_id = r.requirement_id
          UNION ALL
          SELECT l.requirement_id FROM requirement_links l WHERE l.tenant_id = r.tenant_id AND l.linked_requirement_id = r.requirement_id) k
    JOIN requirements o ON o.tenant_id = r.tenant_id AND o.requirement_id = k.other
    JOIN requirement_types ot ON ot.tenant_id = o.tenant_id AND ot.requirement_type_id = o.requirement_type_id
    WHERE o.deleted_at IS NULL) AS linked`;
  const rows = await selectRequirements(db, tenantId, options)
    .whereIn("r.requirement_id", requirementIds)
    .orderBy("r.requirement_id")
    .select(
      db.raw(`(SELECT json_agg(x.atlassian_component_id ORDER BY x.atlassian_component_id) ${ids("requirement_components")}) AS components`),
      db.raw(`(SELECT json_agg(x.atlassian_issue_id ORDER BY x.atlassian_issue_id) ${ids("requirement_issue_links")}) AS issues`),
      db.raw(`(SELECT json_agg(x.atlassian_content_id ORDER BY x.atlassian_content_id) ${ids("requirement_content_links")}) AS contents`),
      db.raw(
        `(SELECT json_object_agg(x.attribute_id, x.value ORDER BY x.attribute_id) ${ids("requirement_attribute_values")}) AS attributes`,
      ),
      db.raw(
        `(SELECT json_agg(json_build_object('original_file_name', x.original_file_name, 'uuid_file_name', x.uuid_file_name) ORDER BY x.created_at, x.uuid_file_name) ${ids("attachments")} AND x.operation = 'attachment') AS attachments`,
      ),
      db.raw(linked),
    );
  return rows.map((row: Record<string, unknown>) => ({
    ...toRow(row),
    components: asJson<unknown[]>(row.components, []).map(String),
    issues: asJson<unknown[]>(row.issues, []).map(String),
    contents: asJson<unknown[]>(row.contents, []).map(String),
    attributes: Object.fromEntries(
      Object.entries(asJson<Record<string, unknown>>(row.attributes, {})).map(([k, v]) => [k, String(v)]),
    ),
    attachments: asJson(row.attachments, []),
    linked: asJson<Record<string, unknown>[]>(row.linked, []).map(toLinkedRow),
  }));
}

export type NewRequirement = {
  projectId: number;
  parentFolderId: number | null;
  requirementTypeId: number;
  displayId: string | null;
  name: string;
  description: string;
  statusId: string | null;
  assignedTo: string | null;
  createdBy: string;
};

export async function insertRequirement(db: Db, tenantId: string, requirement: NewRequirement): Promise<number> {
  const [row] = await db("requirements")
    .insert({
      tenant_id: tenantId,
      project_id: requirement.projectId,
      parent_folder_id: requirement.parentFolderId,
      requirement_type_id: requirement.requirementTypeId,
      display_id: requirement.displayId,
      name: requirement.name,
      description: requirement.description,
      status_id: requirement.statusId,
      assigned_to: requirement.assignedTo,
      created_by: requirement.createdBy,
    })
    .returning("requirement_id");
  return Number(row.requirement_id);
}

export type RequirementChanges = Partial<{
  parent_folder_id: number | null;
  requirement_type_id: number;
  display_id: string | null;
  name: string;
  description: string;
  status_id: string | null;
  assigned_to: string | null;
}>;

/**
 * Compare-and-set: applies the changes and bumps `revision` only on rows still at the expected
 * revision; answers how many rows changed (0 = someone else saved in between).
 */
export async function updateRequirementIfRevision(
  db: Db,
  tenantId: string,
  requirementId: number,
  expectedRevision: number,
  changes: RequirementChanges,
): Promise<number> {
  return db("requirements")
    .where({ tenant_id: tenantId, requirement_id: requirementId, revision: expectedRevision })
    .whereNull("deleted_at")
    .update({ ...changes, revision: db.raw("revision + 1"), updated_at: db.fn.now() });
}

/** Applies the same change to many rows and bumps each one's revision (moves, link side effects, deletes). */
export async function touchRequirements(
  db: Db,
  tenantId: string,
  requirementIds: number[],
  changes: RequirementChanges & { deleted_at?: Knex.Raw },
): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirements")
    .where("tenant_id", tenantId)
    .whereIn("requirement_id", requirementIds)
    .update({ ...changes, revision: db.raw("revision + 1"), updated_at: db.fn.now() });
}

async function replaceValues(
  db: Db,
  tenantId: string,
  table: string,
  column: string,
  requirementId: number,
  values: string[],
): Promise<void> {
  await db(table).where({ tenant_id: tenantId, requirement_id: requirementId }).delete();
  const unique = [...new Set(values)];
  if (unique.length === 0) return;
  await db(table).insert(unique.map((value) => ({ tenant_id: tenantId, requirement_id: requirementId, [column]: value })));
}

export const replaceComponents = (db: Db, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(db, tenantId, "requirement_components", "atlassian_component_id", requirementId, ids);
export const replaceIssueLinks = (db: Db, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(db, tenantId, "requirement_issue_links", "atlassian_issue_id", requirementId, ids);
export const replaceContentLinks = (db: Db, tenantId: string, requirementId: number, ids: string[]) =>
  replaceValues(db, tenantId, "requirement_content_links", "atlassian_content_id", requirementId, ids);

export async function replaceAttributeValues(
  db: Db,
  tenantId: string,
  requirementId: number,
  values: Record<string, string>,
): Promise<void> {
  await db("requirement_attribute_values").where({ tenant_id: tenantId, requirement_id: requirementId }).delete();
  const rows = Object.entries(values).map(([attributeId, value]) => ({
    tenant_id: tenantId,
    requirement_id: requirementId,
    attribute_id: Number(attributeId),
    value,
  }));
  if (rows.length > 0) await db("requirement_attribute_values").insert(rows);
}

/** Attachment files already bound to another requirement (their names cannot be taken over). */
export async function attachmentsOwnedElsewhere(
  db: Db,
  tenantId: string,
  requirementId: number,
  uuidFileNames: string[],
): Promise<string[]> {
  if (uuidFileNames.length === 0) return [];
  const rows = await db("attachments")
    .where("tenant_id", tenantId)
    .whereIn("uuid_file_name", uuidFileNames)
    .where((q) => q.whereNot("requirement_id", requirementId).orWhereNot("operation", "attachment"))
    .whereNotNull("requirement_id")
    .select("uuid_file_name");
  return rows.map((row) => String(row.uuid_file_name));
}

export async function replaceAttachments(
  db: Db,
  tenantId: string,
  requirementId: number,
  attachments: { original_file_name: string; uuid_file_name: string }[],
  createdBy: string,
): Promise<void> {
  const keep = attachments.map((attachment) => attachment.uuid_file_name);
  await db("attachments")
    .where({ tenant_id: tenantId, requirement_id: requirementId, operation: "attachment" })
    .whereNotIn("uuid_file_name", keep)
    .delete();
  if (attachments.length === 0) return;
  await db("attachments")
    .insert(
      attachments.map((attachment) => ({
        tenant_id: tenantId,
        uuid_file_name: attachment.uuid_file_name,
        original_file_name: attachment.original_file_name,
        requirement_id: requirementId,
        operation: "attachment",
        created_by: createdBy,
      })),
    )
    .onConflict(["tenant_id", "uuid_file_name"])
    .merge(["requirement_id", "original_file_name", "operation"]);
}

export async function isDisplayIdTaken(
  db: Db,
  tenantId: string,
  projectId: number,
  displayId: string,
  exceptRequirementId?: number,
): Promise<boolean> {
  const query = db("requirements")
    .where({ tenant_id: tenantId, project_id: projectId, display_id: displayId })
    .whereNull("deleted_at");
  if (exceptRequirementId !== undefined) query.whereNot("requirement_id", exceptRequirementId);
  return (await query.first("requirement_id")) !== undefined;
}

export async function activeRequirementIdsInFolders(db: Db, tenantId: string, folderIds: number[]): Promise<number[]> {
  if (folderIds.length === 0) return [];
  const rows = await db("requirements")
    .where("tenant_id", tenantId)
    .whereIn("parent_folder_id", folderIds)
    .whereNull("deleted_at")
    .orderBy("requirement_id")
    .select("requirement_id");
  return rows.map((row) => Number(row.requirement_id));
}

export async function projectHasRequirements(db: Db, tenantId: string, projectId: number): Promise<boolean> {
  return (await db("requirements").where({ tenant_id: tenantId, project_id: projectId }).first("requirement_id")) !== undefined;
}
