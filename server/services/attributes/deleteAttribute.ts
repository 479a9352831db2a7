import { deleteAttribute as deleteAttributeRow } from "../../db/attributeStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/** Removes the field with its options and every requirement's value of it. */
export async function deleteAttribute(deps: ServiceDeps, actor: Actor, attributeId: number): Promise<void> {
  if (!(await deleteAttributeRow(deps.db, actor.tenantId, attributeId))) throw notFound("Custom field");
}
