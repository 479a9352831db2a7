import type { Db } from "../knex.js";

/** Links are undirected and stored once, lower id first (see the schema). */
const ordered = (a: number, b: number) => (a < b ? [a, b] : [b, a]) as [number, number];

/** For each requirement, the ids of the active requirements linked to it. */
export async function linkedRequirementIds(db: Db, tenantId: string, requirementIds: number[]): Promise<Map<number, number[]>> {
  const linked = new Map<number, number[]>();
  if (requirementIds.length === 0) return linked;
  const side = (self: string, other: string) =>
    db("requirement_links as l")
      .join("requirements as o", function () {
        this.on("o.tenant_id", "l.tenant_id").andOn("o.requirement_id", `l.${other}`);
      })
      .where("l.tenant_id", tenantId)
      .whereIn(`l.${self}`, requirementIds)
      .whereNull("o.deleted_at")
      .select(`l.${self} as self`, `l.${other} as other`);
  const rows = [
    ...(await side("requirement_id", "linked_requirement_id")),
    ...(await side("linked_requirement_id", "requirement_id")),
  ].sort((a, b) => Number(a.self) - Number(b.self) || Number(a.other) - Number(b.other));
  for (const row of rows) {
    const list = linked.get(Number(row.self)) ?? [];
    list.push(Number(row.other));
    linked.set(Number(row.self), list);
  }
  return linked;
}

export async function addLinks(db: Db, tenantId: string, requirementId: number, otherIds: number[]): Promise<void> {
  if (otherIds.length === 0) return;
  await db("requirement_links")
    .insert(
      otherIds.map((otherId) => {
        const [low, high] = ordered(requirementId, otherId);
        return { tenant_id: tenantId, requirement_id: low, linked_requirement_id: high };
      }),
    )
    .onConflict(["tenant_id", "requirement_id", "linked_requirement_id"])
    .ignore();
}

export async function removeLinks(db: Db, tenantId: string, requirementId: number, otherIds: number[]): Promise<void> {
  if (otherIds.length === 0) return;
  await db("requirement_links")
    .where("tenant_id", tenantId)
    .where((q) => {
      for (const otherId of otherIds) {
        const [low, high] = ordered(requirementId, otherId);
        q.orWhere((pair) => pair.where({ requirement_id: low, linked_requirement_id: high }));
      }
    })
    .delete();
}

/** Drops every link of the given requirements (they are being deleted). */
export async function removeAllLinks(db: Db, tenantId: string, requirementIds: number[]): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirement_links")
    .where("tenant_id", tenantId)
    .where((q) => q.whereIn("requirement_id", requirementIds).orWhereIn("linked_requirement_id", requirementIds))
    .delete();
}
