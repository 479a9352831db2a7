/** The requirement row with its type, as every read of whole requirements selects it. */
import type { Knex } from "knex";
import type { Db } from "../knex.js";

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

export const toRow = (row: Record<string, unknown>): RequirementRow => ({
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

/** The columns of the `t` CTE; its tenant too, so a join can name it where `t` holds several sites' types. */
export const REQUIREMENT_TYPE_COLUMNS = ["tenant_id", "requirement_type_id", "name", "prefix", "level"];

/**
 * The tenant's requirement types (a handful of rows) as the materialized CTE `t`, read once per
 * statement and joined from memory. A plain join lets the planner probe requirement_types' index
 * once per requirement row: 79 million index scans a day on a table of 6 rows.
 */
export function withRequirementTypes(db: Db, tenantId: string): Knex.QueryBuilder {
  return db.queryBuilder().withMaterialized("t", db("requirement_types").where("tenant_id", tenantId).select(REQUIREMENT_TYPE_COLUMNS));
}

/** A requirement row's columns, its type's name, prefix and level from the `t` CTE. */
export const REQUIREMENT_COLUMNS = [
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
];

/** The type's prefix and level come in the same query (from the `t` CTE). */
export function selectRequirements(db: Db, tenantId: string, { includeDeleted = false } = {}): Knex.QueryBuilder {
  const query = withRequirementTypes(db, tenantId)
    .from("requirements as r")
    .join("t", "t.requirement_type_id", "r.requirement_type_id")
    .where("r.tenant_id", tenantId)
    .select(REQUIREMENT_COLUMNS);
  return includeDeleted ? query : query.whereNull("r.deleted_at");
}
