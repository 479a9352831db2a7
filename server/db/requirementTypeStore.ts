import type { PageQuery } from "../../common/schemas/paging.js";
import type { Db } from "./knex.js";

export type RequirementTypeRow = {
  requirement_type_id: number;
  name: string;
  prefix: string;
  level: number;
  level_editable: boolean;
};

const COLUMNS = ["requirement_type_id", "name", "prefix", "level", "level_editable"] as const;

const toRow = (row: Record<string, unknown>): RequirementTypeRow => ({
  requirement_type_id: Number(row.requirement_type_id),
  name: String(row.name),
  prefix: String(row.prefix),
  level: Number(row.level),
  level_editable: row.level_editable === true,
});

/** The site's types by level; with a page, `limit + 1` of them from `offset` (the caller tells whether another page follows). */
export async function listRequirementTypes(db: Db, tenantId: string, page?: PageQuery): Promise<RequirementTypeRow[]> {
  const query = db("requirement_types")
    .where({ tenant_id: tenantId })
    .whereNull("deleted_at")
    .orderBy([{ column: "level" }, { column: "requirement_type_id" }])
    .select(COLUMNS);
  if (page) query.offset(page.offset).limit(page.limit + 1);
  const rows = await query;
  return rows.map(toRow);
}

/**
 * `lock` holds the row until the transaction ends: requirements being saved with the type take
 * "share", its delete takes "update", so a delete never misses a requirement saved at the same moment.
 */
export async function findRequirementType(
  db: Db,
  tenantId: string,
  requirementTypeId: number,
  lock?: "share" | "update",
): Promise<RequirementTypeRow | undefined> {
  const query = db("requirement_types")
    .where({ tenant_id: tenantId, requirement_type_id: requirementTypeId })
    .whereNull("deleted_at")
    .first(COLUMNS);
  if (lock === "share") query.forShare();
  if (lock === "update") query.forUpdate();
  const row = await query;
  return row ? toRow(row) : undefined;
}

/** Also counts deleted types, so the defaults are given once per tenant and never come back. */
export async function countRequirementTypesEver(db: Db, tenantId: string): Promise<number> {
  const row = await db("requirement_types").where({ tenant_id: tenantId }).count<{ count: number | string }>("* as count").first();
  return Number(row?.count ?? 0);
}

export async function insertRequirementTypes(
  db: Db,
  tenantId: string,
  types: { name: string; prefix: string; level: number; levelEditable: boolean }[],
): Promise<RequirementTypeRow[]> {
  if (types.length === 0) return [];
  const rows = await db("requirement_types")
    .insert(
      types.map((type) => ({
        tenant_id: tenantId,
        name: type.name,
        prefix: type.prefix,
        level: type.level,
        level_editable: type.levelEditable,
      })),
    )
    .returning(COLUMNS);
  return rows.map(toRow);
}

export async function updateRequirementType(
  db: Db,
  tenantId: string,
  requirementTypeId: number,
  changes: { name: string; prefix: string; level: number },
): Promise<RequirementTypeRow | undefined> {
  const [row] = await db("requirement_types")
    .where({ tenant_id: tenantId, requirement_type_id: requirementTypeId })
    .whereNull("deleted_at")
    .update(changes)
    .returning(COLUMNS);
  return row ? toRow(row) : undefined;
}

/** Soft: deleted requirements and their revisions still name the type. */
export async function softDeleteRequirementType(db: Db, tenantId: string, requirementTypeId: number): Promise<void> {
  await db("requirement_types").where({ tenant_id: tenantId, requirement_type_id: requirementTypeId }).update({ deleted_at: db.fn.now() });
}

export async function countActiveRequirementsOfType(db: Db, tenantId: string, requirementTypeId: number): Promise<number> {
  const row = await db("requirements")
    .where({ tenant_id: tenantId, requirement_type_id: requirementTypeId })
    .whereNull("deleted_at")
    .count<{ count: number | string }>("* as count")
    .first();
  return Number(row?.count ?? 0);
}

/** Whether any active requirement of the type is linked to another: its level then must not move. */
export async function typeHasLinkedRequirements(db: Db, tenantId: string, requirementTypeId: number): Promise<boolean> {
  const row = await db("requirement_links as l")
    .join("requirements as a", function () {
      this.on("a.tenant_id", "l.tenant_id").andOn("a.requirement_id", "l.requirement_id");
    })
    .join("requirements as b", function () {
      this.on("b.tenant_id", "l.tenant_id").andOn("b.requirement_id", "l.linked_requirement_id");
    })
    .where("l.tenant_id", tenantId)
    .whereNull("a.deleted_at")
    .whereNull("b.deleted_at")
    .where((q) => q.where("a.requirement_type_id", requirementTypeId).orWhere("b.requirement_type_id", requirementTypeId))
    .first(db.raw("1 as found"));
  return row !== undefined;
}
