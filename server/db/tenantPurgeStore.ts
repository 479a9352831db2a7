import type { Db } from "./knex.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant named by its id or by its site URL (Confluence's /wiki URL names the same site). */
export async function findTenantIdByIdOrSiteUrl(db: Db, idOrSiteUrl: string): Promise<string | undefined> {
  const query = UUID.test(idOrSiteUrl)
    ? db("tenants").where({ tenant_id: idOrSiteUrl })
    : db("tenants").where({ site_url: idOrSiteUrl.replace(/\/+$/, "").replace(/\/wiki$/, "") });
  const row = await query.first("tenant_id");
  return row?.tenant_id;
}

/**
 * Every table of the current schema that carries tenant_id, children before the tables they
 * reference, so one DELETE per table never trips a foreign key. Found from the catalog, so tables
 * that later migrations add are purged too.
 */
async function tenantTablesInDeleteOrder(db: Db): Promise<string[]> {
  const tables: { table_name: string }[] = (
    await db.raw(
      `select c.table_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'`,
    )
  ).rows;
  const references: { child: string; parent: string }[] = (
    await db.raw(
      `select child.relname as child, parent.relname as parent from pg_constraint k
         join pg_class child on child.oid = k.conrelid
         join pg_class parent on parent.oid = k.confrelid
         join pg_namespace n on n.oid = child.relnamespace
        where k.contype = 'f' and n.nspname = current_schema() and child.relname <> parent.relname`,
    )
  ).rows;
  const remaining = new Set(tables.map((row) => row.table_name));
  const order: string[] = [];
  while (remaining.size > 0) {
    const leaves = [...remaining].filter(
      (table) => !references.some((edge) => edge.parent === table && edge.child !== table && remaining.has(edge.child)),
    );
    if (leaves.length === 0) throw new Error(`Foreign keys form a cycle among ${[...remaining].join(", ")}`);
    for (const table of leaves.sort()) {
      order.push(table);
      remaining.delete(table);
    }
  }
  return order;
}

/** Deletes every row of the tenant, the tenant last; answers the rows deleted per table. */
export async function purgeTenantData(db: Db, tenantId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const table of await tenantTablesInDeleteOrder(db)) {
    // Counted from the returned rows: knex-pglite answers a raw result where pg answers a count.
    deleted[table] = (await db(table).where({ tenant_id: tenantId }).delete(["tenant_id"])).length;
  }
  return deleted;
}
