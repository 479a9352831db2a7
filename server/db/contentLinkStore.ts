import type { Db } from "./knex.js";

/** Live requirements linked to a Confluence page, by id. */
export async function requirementIdsLinkedToContent(db: Db, tenantId: string, contentId: string): Promise<number[]> {
  const rows = await db("requirement_content_links as c")
    .join("requirements as r", function joinRequirement() {
      this.on("r.tenant_id", "c.tenant_id").andOn("r.requirement_id", "c.requirement_id");
    })
    .where({ "c.tenant_id": tenantId, "c.atlassian_content_id": contentId })
    .whereNull("r.deleted_at")
    .orderBy("c.requirement_id")
    .select("c.requirement_id");
  return rows.map((row) => Number(row.requirement_id));
}

/** How many pages each requirement links (every asked id has an entry). */
export async function contentCounts(db: Db, tenantId: string, requirementIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(requirementIds.map((id) => [id, 0]));
  if (requirementIds.length === 0) return counts;
  const rows = await db("requirement_content_links")
    .where("tenant_id", tenantId)
    .whereIn("requirement_id", requirementIds)
    .groupBy("requirement_id")
    .select("requirement_id", db.raw("count(*) AS links"));
  for (const row of rows) counts.set(Number(row.requirement_id), Number(row.links));
  return counts;
}

export async function addContentLinks(db: Db, tenantId: string, contentId: string, requirementIds: number[]): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirement_content_links")
    .insert(
      requirementIds.map((requirementId) => ({ tenant_id: tenantId, requirement_id: requirementId, atlassian_content_id: contentId })),
    )
    .onConflict(["tenant_id", "requirement_id", "atlassian_content_id"])
    .ignore();
}

export async function removeContentLinks(db: Db, tenantId: string, contentId: string, requirementIds: number[]): Promise<void> {
  if (requirementIds.length === 0) return;
  await db("requirement_content_links")
    .where({ tenant_id: tenantId, atlassian_content_id: contentId })
    .whereIn("requirement_id", requirementIds)
    .delete();
}

/**
 * The site's linked pages with their live requirements, by content id, a page of them at a time:
 * the content ids are paged first (index on tenant and content id), then their links read.
 */
export async function listLinkedContents(
  db: Db,
  tenantId: string,
  projectIds: readonly number[],
  page: { start: number; limit: number },
): Promise<{ contentId: string; requirementIds: number[] }[]> {
  const live = () =>
    db("requirement_content_links as c")
      .join("requirements as r", function joinRequirement() {
        this.on("r.tenant_id", "c.tenant_id").andOn("r.requirement_id", "c.requirement_id");
      })
      .where("c.tenant_id", tenantId)
      .whereIn("r.project_id", projectIds)
      .whereNull("r.deleted_at");
  const contentRows = await live()
    .distinct("c.atlassian_content_id")
    .orderBy("c.atlassian_content_id")
    .offset(page.start)
    .limit(page.limit);
  const contentIds = contentRows.map((row) => String(row.atlassian_content_id));
  if (contentIds.length === 0) return [];
  const links = await live()
    .whereIn("c.atlassian_content_id", contentIds)
    .orderBy(["c.atlassian_content_id", "c.requirement_id"])
    .select("c.atlassian_content_id", "c.requirement_id");
  const byContent = new Map<string, number[]>(contentIds.map((id) => [id, []]));
  for (const link of links) byContent.get(String(link.atlassian_content_id))?.push(Number(link.requirement_id));
  return contentIds.map((contentId) => ({ contentId, requirementIds: byContent.get(contentId) ?? [] }));
}
