import { deleteAttribute as deleteAttributeRow } from "../../db/attributeStore.js";
import type { Db } from "../../db/knex.js";
import { notFound } from "../../errors.js";

/** Removes the field with its options and every requirement's value of it. */
export async function deleteAttribute(db: Db, tenantId: string, attributeId: number): Promise<void> {
  if (!(await deleteAttributeRow(db, tenantId, attributeId))) throw notFound("Custom field");
}
