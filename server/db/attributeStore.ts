import type { PageQuery } from "../../common/schemas/paging.js";
import type { Attribute, AttributeType } from "../../common/schemas/attribute.js";
import type { Db } from "./knex.js";
import { lockName } from "./queryHelpers.js";

type AttributeRow = { attribute_id: number; project_id: number; name: string; type: AttributeType };
type OptionRow = { attribute_id: number; attribute_option_id: number; name: string };

/** Custom fields in id order; with a page, `limit + 1` of them from `offset` (the caller tells whether another page follows). */
export async function listAttributes(db: Db, tenantId: string, projectId?: number, page?: PageQuery): Promise<Attribute[]> {
  const query = db("attributes")
    .where({ tenant_id: tenantId })
    .select("attribute_id", "project_id", "name", "type")
    .orderBy("attribute_id");
  if (projectId !== undefined) query.andWhere({ project_id: projectId });
  if (page) query.offset(page.offset).limit(page.limit + 1);
  const rows: AttributeRow[] = await query;
  if (rows.length === 0) return [];
  const options: OptionRow[] = await db("attribute_options")
    .where({ tenant_id: tenantId })
    .whereIn(
      "attribute_id",
      rows.map((row) => row.attribute_id),
    )
    .select("attribute_id", "attribute_option_id", "name")
    .orderBy(["attribute_id", "position", "attribute_option_id"]);
  return rows.map((row) => toAttribute(row, options));
}

export async function findAttribute(db: Db, tenantId: string, attributeId: number): Promise<Attribute | undefined> {
  const row: AttributeRow | undefined = await db("attributes")
    .where({ tenant_id: tenantId, attribute_id: attributeId })
    .first("attribute_id", "project_id", "name", "type");
  if (!row) return undefined;
  const options: OptionRow[] = await db("attribute_options")
    .where({ tenant_id: tenantId, attribute_id: attributeId })
    .select("attribute_id", "attribute_option_id", "name")
    .orderBy(["position", "attribute_option_id"]);
  return toAttribute(row, options);
}

/** Held by a custom field's create until it commits: two creates of one name check it one after the other. */
export async function lockAttributeNames(db: Db, tenantId: string, projectId: number): Promise<void> {
  await lockName(db, `attribute-names:${tenantId}:${projectId}`, "exclusive");
}

export async function attributeNameExists(db: Db, tenantId: string, projectId: number, name: string): Promise<boolean> {
  const row = await db("attributes")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereRaw("lower(name) = lower(?)", [name])
    .first("attribute_id");
  return row !== undefined;
}

export async function insertAttribute(
  db: Db,
  tenantId: string,
  attribute: { projectId: number; name: string; type: AttributeType; options: string[] },
): Promise<number> {
  const [row] = await db("attributes")
    .insert({ tenant_id: tenantId, project_id: attribute.projectId, name: attribute.name, type: attribute.type })
    .returning("attribute_id");
  const attributeId = Number(row.attribute_id);
  if (attribute.options.length > 0) {
    await db("attribute_options").insert(
      attribute.options.map((name, position) => ({ tenant_id: tenantId, attribute_id: attributeId, name, position })),
    );
  }
  return attributeId;
}

/** Options and every requirement's value of the field go with it (ON DELETE CASCADE). */
export async function deleteAttribute(db: Db, tenantId: string, attributeId: number): Promise<boolean> {
  const deleted = await db("attributes").where({ tenant_id: tenantId, attribute_id: attributeId }).delete().returning("attribute_id");
  return deleted.length > 0;
}

function toAttribute(row: AttributeRow, options: OptionRow[]): Attribute {
  return {
    attribute_id: row.attribute_id,
    name: row.name,
    type: row.type,
    options: options
      .filter((option) => option.attribute_id === row.attribute_id)
      .map((option) => ({ attribute_option_id: option.attribute_option_id, name: option.name })),
    atlassian_project_id: row.project_id,
    project: row.project_id,
  };
}
