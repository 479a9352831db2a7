import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../../server/db/knex.js";
import { createTenant, type TestTenant } from "./app.js";

/**
 * A tenant shaped like a customer's site, written with bulk SQL (generate_series) in seconds:
 * projects of 1,000 requirements each in 10 folders with a subfolder each (20 at the top level),
 * types of four levels cycling, and per requirement 0.5 requirement links, 2 issue links,
 * 0.25 page links, 0.5 components, 1 custom field value and 1.2 revisions. So 100,000
 * requirements come with 50,000 links, 200,000 issue links and 120,000 revisions.
 *
 * Every project has the same shape, so project 10000 of a 1,000-requirement tenant and of a
 * 100,000-requirement tenant hold the same rows: a query whose cost differs between the two
 * reads more of the tenant than it needs.
 */
export const REQUIREMENTS_PER_PROJECT = 1_000;
export const FIRST_PROJECT_ID = 10_000;
const FOLDERS_PER_PROJECT = 20;
const ISSUES_PER_PROJECT = 1_000;

/** Ids inside project 10000 that every tenant shaped this way has (a read's probe). */
export const PROBE = {
  projectId: FIRST_PROJECT_ID,
  /** Level 1, linked to requirement 6, two issues, a page, a component, a field value, two revisions. */
  requirementId: 5,
  /** A top-level folder of 90 requirements and one subfolder (11) of 10. */
  folderId: 1,
  subfolderId: 11,
  /** Linked to requirements 5 and 505 of project 10000. */
  issueId: String(10_000 + 4),
  /** Linked to requirements 5 and 505 of project 10000. */
  contentId: String(4),
  requirementIds: Array.from({ length: 20 }, (_, i) => 1 + i * 50),
} as const;

const SEEDED_TABLES = [
  "tenants",
  "installations",
  "requirement_types",
  "folders",
  "requirements",
  "requirement_links",
  "requirement_issue_links",
  "requirement_content_links",
  "requirement_components",
  "attributes",
  "requirement_attribute_values",
  "requirement_revisions",
  "suspect_requirement_links",
  "suspect_issue_links",
];

export type RealisticTenant = TestTenant & { requirements: number; projects: number };

/** Seeds a new tenant of `requirements` (a multiple of 1,000) and analyses the tables it filled. */
export async function seedRealisticTenant(db: Db, requirements: number, name?: string): Promise<RealisticTenant> {
  if (requirements % REQUIREMENTS_PER_PROJECT !== 0) throw new Error("requirements must be a multiple of 1,000");
  const tenant = await createTenant(db, name);
  const projects = requirements / REQUIREMENTS_PER_PROJECT;
  const bindings = { tenant: tenant.tenantId, n: requirements, projects, perProject: REQUIREMENTS_PER_PROJECT };
  await db.transaction(async (trx) => {
    // The rows are consistent by construction: foreign-key checks off for this load only (10x faster).
    await trx.raw("SET LOCAL session_replication_role = replica");
    await insertTenantRows(trx, bindings);
  });
  // Explicit ids: move every sequence past them so the app's own inserts do not collide.
  for (const [table, column] of [
    ["requirements", "requirement_id"],
    ["folders", "folder_id"],
    ["requirement_types", "requirement_type_id"],
    ["attributes", "attribute_id"],
  ] as const) {
    await db.raw(`SELECT setval(pg_get_serial_sequence(?, ?), (SELECT max(??) FROM ??) + 1)`, [table, column, column, table]);
  }
  // As autovacuum leaves a production table: statistics, and a visibility map for index-only scans.
  await db.raw(`VACUUM ANALYZE ${SEEDED_TABLES.join(", ")}`);
  await vacuumUntilAllVisible(db);
  return { ...tenant, requirements, projects };
}

/** The test files running beside this one share its database; their transactions last seconds. */
const ALL_VISIBLE_WITHIN_MS = 60_000;

/**
 * VACUUM marks a page all-visible only when no transaction open in the database could still miss
 * its rows. In CI the other test files share the database (each in a schema of its own), and one
 * of their transactions open across the VACUUM left the visibility map unset: every index-only
 * probe then read the heap as well (757 buffers more for planGrowth's suspect filter at 100,000
 * than at 1,000; an open transaction reproduces the very figures). So VACUUM is repeated until
 * the tables it filled are wholly visible, as autovacuum leaves them in production.
 */
async function vacuumUntilAllVisible(db: Db): Promise<void> {
  const deadline = Date.now() + ALL_VISIBLE_WITHIN_MS;
  for (;;) {
    const result = await db.raw(
      `SELECT relname FROM pg_class
       WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname = ANY(?) AND relallvisible < relpages`,
      [SEEDED_TABLES],
    );
    const partlyVisible = (result.rows ?? result).map((row: { relname: string }) => row.relname);
    if (partlyVisible.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `VACUUM left pages of ${partlyVisible.join(", ")} not all-visible: a transaction stayed open in this database for a minute`,
      );
    }
    await sleep(100);
    await db.raw(`VACUUM ${partlyVisible.join(", ")}`);
  }
}

async function insertTenantRows(db: Db, bindings: Record<string, string | number>): Promise<void> {
  const run = (sql: string) => db.raw(sql, bindings);

  // Four default levels plus two types an administrator added: six types, as the issue measured.
  await run(`INSERT INTO requirement_types (tenant_id, requirement_type_id, name, prefix, level, level_editable)
    VALUES (:tenant::uuid, 1, 'Business', 'BR', 1, false), (:tenant::uuid, 2, 'Stakeholder', 'SR', 2, false),
           (:tenant, 3, 'System', 'SYS', 3, false), (:tenant::uuid, 4, 'Software', 'SW', 4, false),
           (:tenant, 5, 'Regulatory', 'REG', 1, true), (:tenant::uuid, 6, 'Interface', 'IF', 3, true)`);
  // Folders 1-10 of each project at the top level, 11-20 one inside each; a project's rows stored
  // together, as in the small tenant, so the two differ in plans rather than in heap locality.
  await run(`INSERT INTO folders (tenant_id, folder_id, project_id, parent_folder_id, name, created_by)
    SELECT :tenant::uuid, p * ${FOLDERS_PER_PROJECT} + f, ${FIRST_PROJECT_ID} + p,
           CASE WHEN f > 10 THEN p * ${FOLDERS_PER_PROJECT} + f - 10 END, 'Folder ' || f, 'seed'
    FROM generate_series(0, :projects::int - 1) p, generate_series(1, 10) f ORDER BY p, f`);
  await run(`INSERT INTO folders (tenant_id, folder_id, project_id, parent_folder_id, name, created_by)
    SELECT :tenant::uuid, p * ${FOLDERS_PER_PROJECT} + f, ${FIRST_PROJECT_ID} + p, p * ${FOLDERS_PER_PROJECT} + f - 10, 'Folder ' || f, 'seed'
    FROM generate_series(0, :projects::int - 1) p, generate_series(11, 20) f ORDER BY p, f`);
  // Requirement i is the w-th of project p; 90 in each top folder, 10 in each subfolder.
  await run(`INSERT INTO requirements (tenant_id, requirement_id, project_id, parent_folder_id, requirement_type_id, display_id, name, description, status_id, assigned_to, created_by, revision)
    SELECT :tenant::uuid, i, ${FIRST_PROJECT_ID} + p,
           CASE WHEN w < 900 THEN p * ${FOLDERS_PER_PROJECT} + 1 + w / 90 ELSE p * ${FOLDERS_PER_PROJECT} + 11 + (w - 900) / 10 END,
           w % 4 + 1, CASE WHEN w % 10 = 0 THEN 'C-' || w END, 'Requirement ' || i,
           'The system shall do thing ' || i || ' within the limits of its project.', '1000' || (w % 3), CASE WHEN w % 2 = 0 THEN 'user-' || (w % 7) END,
           'seed', CASE WHEN w % 5 = 4 THEN 2 ELSE 1 END
    FROM (SELECT i, (i - 1) / :perProject::int AS p, (i - 1) % :perProject::int AS w FROM generate_series(1, :n::int) i) s`);
  // Levels 1-2 and 3-4 pairs: requirement i (w % 4 in 0, 2) with i + 1.
  await run(`INSERT INTO requirement_links (tenant_id, requirement_id, linked_requirement_id)
    SELECT :tenant::uuid, i, i + 1 FROM generate_series(1, :n::int) i WHERE (i - 1) % 4 IN (0, 2)`);
  await run(`INSERT INTO requirement_issue_links (tenant_id, requirement_id, atlassian_issue_id)
    SELECT :tenant::uuid, i, (${10_000} + p * ${ISSUES_PER_PROJECT} + w % 500)::text FROM
      (SELECT i, (i - 1) / :perProject::int AS p, (i - 1) % :perProject::int AS w FROM generate_series(1, :n::int) i) s
    UNION ALL
    SELECT :tenant::uuid, i, (${10_000} + p * ${ISSUES_PER_PROJECT} + 500 + (w * 7) % 500)::text FROM
      (SELECT i, (i - 1) / :perProject::int AS p, (i - 1) % :perProject::int AS w FROM generate_series(1, :n::int) i) s`);
  await run(`INSERT INTO requirement_content_links (tenant_id, requirement_id, atlassian_content_id)
    SELECT :tenant::uuid, i, ((i - 1) / :perProject::int * ${REQUIREMENTS_PER_PROJECT} + (i - 1) % 250)::text
    FROM generate_series(1, :n::int) i WHERE (i - 1) % 4 = 0`);
  await run(`INSERT INTO requirement_components (tenant_id, requirement_id, atlassian_component_id)
    SELECT :tenant::uuid, i, (10000 + (i - 1) % 5)::text FROM generate_series(1, :n::int) i WHERE i % 2 = 1`);
  await run(`INSERT INTO attributes (tenant_id, attribute_id, project_id, name, type)
    SELECT :tenant::uuid, p * 3 + a, ${FIRST_PROJECT_ID} + p, (ARRAY['Priority', 'Risk', 'Owner team'])[a], CASE WHEN a = 3 THEN 'string' ELSE 'select' END
    FROM generate_series(0, :projects::int - 1) p, generate_series(1, 3) a`);
  await run(`INSERT INTO requirement_attribute_values (tenant_id, requirement_id, attribute_id, value)
    SELECT :tenant::uuid, i, (i - 1) / :perProject::int * 3 + 3, 'Team ' || (i % 9) FROM generate_series(1, :n::int) i`);
  // Issue 34: the links of every requirement at revision 2 (w % 5 = 4, a fifth) are suspect since
  // that revision. Chosen by id, not by a join: the tables have no statistics yet.
  const changed = (id: string) => `((${id} - 1) % :perProject::int) % 5 = 4`;
  await run(`INSERT INTO suspect_issue_links (tenant_id, requirement_id, atlassian_issue_id, since_revision, changed_by, changed_at)
    SELECT l.tenant_id, l.requirement_id, l.atlassian_issue_id, 2, 'seed', now() FROM requirement_issue_links l
    WHERE l.tenant_id = :tenant AND ${changed("l.requirement_id")}`);
  await run(`INSERT INTO suspect_requirement_links (tenant_id, requirement_id, linked_requirement_id, changed_requirement_id, since_revision, changed_by, changed_at)
    SELECT l.tenant_id, l.requirement_id, l.linked_requirement_id,
      CASE WHEN ${changed("l.requirement_id")} THEN l.requirement_id ELSE l.linked_requirement_id END, 2, 'seed', now()
    FROM requirement_links l WHERE l.tenant_id = :tenant AND (${changed("l.requirement_id")} OR ${changed("l.linked_requirement_id")})`);
  await run(`INSERT INTO requirement_revisions (tenant_id, requirement_id, revision, account_id, action, changed_fields, snapshot)
    SELECT :tenant::uuid, r.requirement_id, v, 'seed', CASE WHEN v = 1 THEN 'created' ELSE 'updated' END,
           CASE WHEN v = 1 THEN '{}'::text[] ELSE '{name}'::text[] END,
           jsonb_build_object('requirement_id', r.requirement_id, 'name', r.name, 'description', r.description, 'project', r.project_id)
    FROM requirements r, generate_series(1, r.revision) v WHERE r.tenant_id = :tenant`);
}
