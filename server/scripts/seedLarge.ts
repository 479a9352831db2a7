import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { BULK_WRITTEN_TABLES, createDb, type Db, dbOptionsFromConfig, migrateToLatest } from "../db/knex.js";
import { findTenantIdByIdOrSiteUrl } from "../db/tenantPurgeStore.js";
import { isEntryPoint } from "../isEntryPoint.js";
import { appActor } from "../services/context.js";
import { seedDefaultRequirementTypes } from "../services/requirementTypes/seedDefaultRequirementTypes.js";

export type LargeProject = {
  projectId: number;
  requirements: number;
  /** Folders: a tenth at the top level, the rest spread below them. 0 puts every requirement at the top level. */
  folders: number;
  /** Requirements in the first folder (a folder of thousands to open); the rest are spread over all folders. */
  bigFolderRequirements: number;
  /** Jira issue links per requirement (a tenth of the requirements get none). */
  linksPerRequirement: number;
  /** Links from each requirement to the ones after it in the project (a tenth get none). */
  requirementLinksPerRequirement: number;
  /** Each requirement's first revision ("created"), as a requirement made in the product has: baselines freeze revisions. */
  firstRevisions: boolean;
};

export const LARGE_PROJECT: LargeProject = {
  projectId: 10000,
  requirements: 100_000,
  folders: 500,
  bigFolderRequirements: 5000,
  linksPerRequirement: 5,
  requirementLinksPerRequirement: 0,
  firstRevisions: false,
};

/** The snapshot a revision freezes, in its stored form (db/requirements/revisions.ts's StoredSnapshot), built by SQL for rows aliased `r`. */
const SNAPSHOT_SQL = `jsonb_build_object(
  'display_id', r.display_id, 'name', r.name, 'description', r.description, 'assigned_to', NULL, 'status', NULL,
  'requirement_type', jsonb_build_object('requirement_type_id', t.requirement_type_id, 'name', t.name, 'prefix', t.prefix, 'level', t.level),
  'parent_folder_id', r.parent_folder_id, 'project', r.project_id)`;

/** Writes the revision row that each matching requirement's `revision` column now names. */
export async function recordRevisionsBySql(db: Db, tenantId: string, where: string, bindings: unknown[] = []) {
  await db.raw(
    `INSERT INTO requirement_revisions (tenant_id, requirement_id, revision, account_id, action, changed_fields, snapshot)
     SELECT r.tenant_id, r.requirement_id, r.revision, 'bench', CASE WHEN r.revision = 1 THEN 'created' ELSE 'updated' END,
            '{}', ${SNAPSHOT_SQL}
     FROM requirements r JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
     WHERE r.tenant_id = ? AND ${where}`,
    [tenantId, ...(bindings as never[])],
  );
}

/** Rows per statement: each batch is one set-based INSERT, so 100,000 requirements are a hundred statements. */
const BATCH = 1000;

/**
 * Issue 37: a project the size the product must stay usable at (100,000 requirements in 500
 * folders, 500,000 issue links), inserted set-based straight into the database under one site:
 * what the bench cases and browser tests open, and what `npm run seed:large` gives an operator to
 * try. The issue ids are numbers from 10000 up (a host that does not know them shows the rows
 * without issue details). Answers the folders' ids, the first being the big one.
 */
export async function seedLargeProject(
  db: Db,
  tenantId: string,
  options: Partial<LargeProject> = {},
): Promise<{ bigFolderId: number | undefined; folderIds: number[] }> {
  const project = { ...LARGE_PROJECT, ...options };
  if ((await db("requirement_types").where({ tenant_id: tenantId }).first("requirement_type_id")) === undefined) {
    await seedDefaultRequirementTypes({ db }, appActor(tenantId));
  }
  const typeIds = (
    await db("requirement_types").where({ tenant_id: tenantId }).orderBy("requirement_type_id").pluck("requirement_type_id")
  ).map(Number);

  const topFolders = project.folders === 0 ? 0 : Math.max(1, Math.round(project.folders / 10));
  const folderIds: number[] = [];
  // The top-level folders first, so the ones below can name them.
  for (const [from, to] of [
    [0, topFolders],
    [topFolders, project.folders],
  ] as const) {
    for (let start = from; start < to; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, to - start) }, (_, i) => {
        const n = start + i;
        return {
          tenant_id: tenantId,
          project_id: project.projectId,
          parent_folder_id: n < topFolders ? null : folderIds[n % topFolders],
          name: n === 0 ? "Big folder" : `Area ${String(n).padStart(3, "0")}`,
          created_by: "seed-large",
        };
      });
      folderIds.push(...(await db("folders").insert(rows).returning("folder_id")).map((row) => Number(row.folder_id)));
    }
  }

  const bigFolder = folderIds.length > 0 ? Math.min(project.bigFolderRequirements, project.requirements) : 0;
  for (let start = 0; start < project.requirements; start += BATCH) {
    const end = Math.min(project.requirements, start + BATCH) - 1;
    await db.raw(
      `INSERT INTO requirements (tenant_id, project_id, parent_folder_id, requirement_type_id, display_id, name, description, created_by)
       SELECT ?, ?,
              CASE WHEN cardinality(?::bigint[]) = 0 THEN NULL
                   WHEN n < ? THEN (?::bigint[])[1]
                   ELSE (?::bigint[])[1 + n % cardinality(?::bigint[])] END,
              (?::bigint[])[1 + n % cardinality(?::bigint[])],
              CASE WHEN n % 4 = 0 THEN 'L-' || n END,
              'Large requirement ' || n,
              'Seeded by seed:large',
              'seed-large'
       FROM generate_series(?::int, ?::int) AS n`,
      [tenantId, project.projectId, folderIds, bigFolder, folderIds, folderIds, folderIds, typeIds, typeIds, start, end],
    );
  }

  const ids = await db("requirements")
    .where({ tenant_id: tenantId, project_id: project.projectId })
    .whereNull("deleted_at")
    .select(db.raw("min(requirement_id) AS first, max(requirement_id) AS last"))
    .first();
  const [first, last] = [Number(ids?.first ?? 0), Number(ids?.last ?? -1)];
  if (project.linksPerRequirement > 0) {
    for (let from = first; from <= last; from += BATCH * 5) {
      await db.raw(
        `INSERT INTO requirement_issue_links (tenant_id, requirement_id, atlassian_issue_id)
         SELECT r.tenant_id, r.requirement_id, (10000 + (r.requirement_id * 7 + k) % 60000)::text
         FROM requirements r CROSS JOIN generate_series(0, ? - 1) AS k
         WHERE r.tenant_id = ? AND r.project_id = ? AND r.requirement_id >= ? AND r.requirement_id < ? AND r.requirement_id % 10 <> 9
         ON CONFLICT DO NOTHING`,
        [project.linksPerRequirement, tenantId, project.projectId, from, from + BATCH * 5],
      );
    }
  }
  if (project.requirementLinksPerRequirement > 0) {
    // Each to the next ids of the same project (sites seeded side by side draw ids from one sequence, so some are another's).
    for (let from = first; from <= last; from += BATCH * 5) {
      await db.raw(
        `INSERT INTO requirement_links (tenant_id, requirement_id, linked_requirement_id)
         SELECT r.tenant_id, r.requirement_id, o.requirement_id
         FROM requirements r CROSS JOIN generate_series(1, ?) AS k
         JOIN requirements o ON o.tenant_id = r.tenant_id AND o.requirement_id = r.requirement_id + k AND o.project_id = r.project_id
         WHERE r.tenant_id = ? AND r.project_id = ? AND r.requirement_id >= ? AND r.requirement_id < ? AND r.requirement_id % 10 <> 8
         ON CONFLICT DO NOTHING`,
        [project.requirementLinksPerRequirement, tenantId, project.projectId, from, from + BATCH * 5],
      );
    }
  }
  // Fresh statistics first: at "empty" PostgreSQL checks the revisions' foreign keys by sequential scans.
  await db.raw("ANALYZE requirements, requirement_issue_links, requirement_links, folders");
  if (project.firstRevisions) {
    await recordRevisionsBySql(
      db,
      tenantId,
      "r.project_id = ? AND NOT EXISTS (SELECT 1 FROM requirement_revisions v WHERE v.tenant_id = r.tenant_id AND v.requirement_id = r.requirement_id)",
      [project.projectId],
    );
  }
  // The project as it is a minute after such a load, when autovacuum has been (PGlite has none): the
  // tree's counts are index-only scans only once the visibility map is set, and without it the first
  // level of 100,000 took 300-400 ms to count where it takes 20.
  await db.raw(`VACUUM (ANALYZE) ${BULK_WRITTEN_TABLES}`);
  return { bigFolderId: folderIds[0], folderIds };
}

const USAGE =
  "Usage: npm run seed:large -- <site url or tenant id> [--project 10000] [--requirements 100000] [--folders 500] [--links 5] [--requirement-links 0]";

if (isEntryPoint(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      project: { type: "string" },
      requirements: { type: "string" },
      folders: { type: "string" },
      links: { type: "string" },
      "requirement-links": { type: "string" },
    },
  });
  const target = positionals[0];
  const numbers = Object.entries(values).map(([name, value]) => [name, Number(value)] as const);
  if (!target || numbers.some(([, value]) => !Number.isInteger(value) || value < 0)) {
    console.error(USAGE);
    process.exit(2);
  }
  const option = (name: string) => numbers.find(([key]) => key === name)?.[1];
  const config = loadConfig();
  const db = createDb(dbOptionsFromConfig(config));
  try {
    await migrateToLatest(db);
    const tenantId = await findTenantIdByIdOrSiteUrl(db, target);
    if (!tenantId) {
      console.error(`No tenant matches ${target}`);
      process.exitCode = 1;
    } else {
      // An operator's seed takes baselines like any project: every requirement gets its 'created' revision.
      const project: Partial<LargeProject> = {
        firstRevisions: true,
        ...(option("project") === undefined ? {} : { projectId: option("project") }),
        ...(option("requirements") === undefined ? {} : { requirements: option("requirements") }),
        ...(option("folders") === undefined ? {} : { folders: option("folders") }),
        ...(option("links") === undefined ? {} : { linksPerRequirement: option("links") }),
        ...(option("requirement-links") === undefined ? {} : { requirementLinksPerRequirement: option("requirement-links") }),
      };
      const started = Date.now();
      await seedLargeProject(db, tenantId, project);
      console.log(
        `Seeded project ${project.projectId ?? LARGE_PROJECT.projectId} of ${target} in ${Math.round((Date.now() - started) / 1000)} s`,
      );
    }
  } finally {
    await db.destroy();
  }
}
