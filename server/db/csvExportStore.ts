import type { Knex } from "knex";
import type { Db } from "./knex.js";

/** The most components any active requirement of the project has: the export writes that many Component/s columns. */
export async function mostComponentsOfOneRequirement(db: Db, tenantId: string, projectId: number): Promise<number> {
  const row = await db("requirement_components as c")
    .join("requirements as r", function () {
      this.on("r.tenant_id", "c.tenant_id").andOn("r.requirement_id", "c.requirement_id");
    })
    .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
    .whereNull("r.deleted_at")
    .groupBy("c.requirement_id")
    .orderByRaw("count(*) desc")
    .first(db.raw("count(*) AS n"));
  return row ? Number(row.n) : 0;
}

/** Every active folder of a project (a project has hundreds, not millions): the export names each requirement's path. */
export async function projectFolders(
  db: Db,
  tenantId: string,
  projectId: number,
): Promise<{ folder_id: number; parent_folder_id: number | null; name: string }[]> {
  const rows = await db("folders")
    .where({ tenant_id: tenantId, project_id: projectId })
    .whereNull("deleted_at")
    .select("folder_id", "parent_folder_id", "name");
  return rows.map((row) => ({
    folder_id: Number(row.folder_id),
    parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
    name: String(row.name),
  }));
}

/** One requirement of an export page, with what hangs off it. */
export type ExportedRequirement = {
  requirement_id: number;
  requirement_type_id: number;
  prefix: string;
  type_name: string;
  display_id: string | null;
  name: string;
  description: string;
  status_id: string | null;
  assigned_to: string | null;
  parent_folder_id: number | null;
  components: string[];
  issues: string[];
  attributes: Record<string, string>;
  /** Active linked requirements, either direction, by id; `suspect` when the link is (issue 34). */
  linked: { requirement_id: number; prefix: string; display_id: string | null; name: string; project_id: number; suspect: boolean }[];
  /** Its suspect links to issues and pages. */
  suspectIssues: string[];
  suspectContents: string[];
};

/**
 * A page of the project's active requirements after `afterId`, in id order, with components,
 * issues, custom field values and linked requirements: five index range scans for the whole
 * page (the detail's per-row subqueries are made for a few requirements, not for thousands).
 */
export async function exportPage(
  db: Db,
  tenantId: string,
  projectId: number,
  afterId: number,
  limit: number,
): Promise<ExportedRequirement[]> {
  const rows = await db("requirements as r")
    .join("requirement_types as t", function () {
      this.on("t.tenant_id", "r.tenant_id").andOn("t.requirement_type_id", "r.requirement_type_id");
    })
    .where({ "r.tenant_id": tenantId, "r.project_id": projectId })
    .whereNull("r.deleted_at")
    .where("r.requirement_id", ">", afterId)
    .orderBy("r.requirement_id")
    .limit(limit)
    .select(
      "r.requirement_id",
      "r.requirement_type_id",
      "t.prefix",
      "t.name as type_name",
      "r.display_id",
      "r.name",
      "r.description",
      "r.status_id",
      "r.assigned_to",
      "r.parent_folder_id",
    );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.requirement_id));
  // The page's id range beside its ids: the planner reads the range from each table's key. Given
  // the ids alone it guesses that a thousand key probes cost more than reading the whole table
  // (every requirement of the site), which it then does for every page.
  const range = [ids[0], ids[ids.length - 1]] as [number, number];
  const onPage = (query: Knex.QueryBuilder, column: string) =>
    query.whereBetween(column, range).whereRaw(`${column} = ANY(?::bigint[])`, [ids]);
  const ofPage = (table: string, columns: string[]) =>
    onPage(db(table).where("tenant_id", tenantId), "requirement_id")
      .orderBy(["requirement_id", ...columns])
      .select("requirement_id", ...columns);
  const linkedVia = (own: string, other: string) =>
    onPage(db("requirement_links as l"), `l.${own}`)
      .join("requirements as o", function () {
        this.on("o.tenant_id", "l.tenant_id").andOn("o.requirement_id", `l.${other}`);
      })
      .join("requirement_types as t", function () {
        this.on("t.tenant_id", "o.tenant_id").andOn("t.requirement_type_id", "o.requirement_type_id");
      })
      .where("l.tenant_id", tenantId)
      .whereNull("o.deleted_at")
      .select(`l.${own} as owner`, "o.requirement_id", "t.prefix", "o.display_id", "o.name", "o.project_id")
      .select(
        db.raw(`EXISTS (SELECT 1 FROM suspect_requirement_links x
          WHERE x.tenant_id = l.tenant_id AND x.requirement_id = l.requirement_id AND x.linked_requirement_id = l.linked_requirement_id) AS suspect`),
      );
  const [components, issues, values, linksFrom, linksTo, suspectIssues, suspectContents] = await Promise.all([
    ofPage("requirement_components", ["atlassian_component_id"]),
    ofPage("requirement_issue_links", ["atlassian_issue_id"]),
    ofPage("requirement_attribute_values", ["attribute_id", "value"]),
    linkedVia("requirement_id", "linked_requirement_id"),
    linkedVia("linked_requirement_id", "requirement_id"),
    ofPage("suspect_issue_links", ["atlassian_issue_id"]),
    ofPage("suspect_content_links", ["atlassian_content_id"]),
  ]);
  const links = [...linksFrom, ...linksTo];
  const group = <T>(items: Record<string, unknown>[], key: string, pick: (item: Record<string, unknown>) => T) => {
    const map = new Map<number, T[]>();
    for (const item of items) {
      const id = Number(item[key]);
      const list = map.get(id);
      if (list) list.push(pick(item));
      else map.set(id, [pick(item)]);
    }
    return map;
  };
  const componentsOf = group(components, "requirement_id", (item) => String(item.atlassian_component_id));
  const issuesOf = group(issues, "requirement_id", (item) => String(item.atlassian_issue_id));
  const valuesOf = group(values, "requirement_id", (item) => [String(item.attribute_id), String(item.value)] as const);
  const linksOf = group(links, "owner", (item) => ({
    requirement_id: Number(item.requirement_id),
    prefix: String(item.prefix),
    display_id: item.display_id === null ? null : String(item.display_id),
    name: String(item.name),
    project_id: Number(item.project_id),
    suspect: item.suspect === true,
  }));
  const suspectIssuesOf = group(suspectIssues, "requirement_id", (item) => String(item.atlassian_issue_id));
  const suspectContentsOf = group(suspectContents, "requirement_id", (item) => String(item.atlassian_content_id));
  return rows.map((row) => {
    const id = Number(row.requirement_id);
    return {
      requirement_id: id,
      requirement_type_id: Number(row.requirement_type_id),
      prefix: String(row.prefix),
      type_name: String(row.type_name),
      display_id: row.display_id === null ? null : String(row.display_id),
      name: String(row.name),
      description: String(row.description ?? ""),
      status_id: row.status_id === null ? null : String(row.status_id),
      assigned_to: row.assigned_to === null ? null : String(row.assigned_to),
      parent_folder_id: row.parent_folder_id === null ? null : Number(row.parent_folder_id),
      components: componentsOf.get(id) ?? [],
      issues: issuesOf.get(id) ?? [],
      attributes: Object.fromEntries(valuesOf.get(id) ?? []),
      linked: (linksOf.get(id) ?? []).sort((a, b) => a.requirement_id - b.requirement_id),
      suspectIssues: suspectIssuesOf.get(id) ?? [],
      suspectContents: suspectContentsOf.get(id) ?? [],
    };
  });
}
