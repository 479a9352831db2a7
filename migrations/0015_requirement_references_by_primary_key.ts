import type { Knex } from "knex";
import * as requirementReferencesPlannedPerStatement from "./0014_requirement_references_planned_per_statement.js";

/**
 * The reference checks of migration 0014 read requirements through their primary key whatever the
 * statistics say, and in one range read for a run of new requirements.
 *
 * Statistics taken when the table held mostly empty pages (a refused import rolled back, then
 * analysed) estimate a requirement or two in all. The planner then either probed each checked row
 * through any index starting with the site, and took 0001's folder index (tenant_id, project_id,
 * parent_folder_id), reading the site's whole folder for every row (an import's batch 0.6–2.2 s
 * instead of 0.1 s); or read the whole primary key once into memory and compared every checked
 * row with every requirement (40,002 requirements read and 12.6 million comparisons, 1.4 s, for
 * 1,667 rows at 20,000 requirements). Every other index of requirements is partial on deleted_at
 * IS NULL, which the checks do not say: the folder index becomes partial too, on requirements in
 * a folder, all that its one reader, the foreign key from folders, asks for (by site and folder,
 * now without the project in between; top-level requirements, an import's usual target, no
 * longer enter it). With materializing switched off as well, a probe of the primary key per row
 * is the only plan left, as 0013 meant.
 *
 * An import writes a batch's components and revisions for requirements it created a moment
 * before, in one run of ids: when every checked row is one site's and the run is all this
 * transaction's own requirements, one range read of the primary key proves them all instead of a
 * probe per row. The range is read only when it is at most twice as long as the statement's
 * rows. Behaviour, error codes and locks are those of 0013.
 */
const PROBE_BY_KEY = "SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET enable_material = off";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX requirements_in_folder ON requirements (tenant_id, parent_folder_id) WHERE parent_folder_id IS NOT NULL");
  await knex.raw("DROP INDEX requirements_tenant_id_project_id_parent_folder_id_index");
  await knex.raw(`
    CREATE OR REPLACE FUNCTION requirement_references_exist() RETURNS trigger LANGUAGE plpgsql ${PROBE_BY_KEY} AS $$
    DECLARE
      run record;
      missing record;
      found record;
      locked bigint := 0;
    BEGIN
      EXECUTE 'SELECT first.tenant_id, bool_and(n.tenant_id = first.tenant_id) AS one_site,
                      min(n.requirement_id) AS low, max(n.requirement_id) AS high, count(*) AS checked
               FROM new_rows n, (SELECT tenant_id FROM new_rows LIMIT 1) first GROUP BY first.tenant_id'
        INTO run;
      IF run.one_site AND run.high - run.low < 2 * run.checked THEN
        EXECUTE 'SELECT count(*) AS present, count(*) FILTER (WHERE r.xmin <> pg_current_xact_id()::xid) AS others
                 FROM requirements r WHERE r.tenant_id = $1 AND r.requirement_id BETWEEN $2 AND $3'
          INTO found USING run.tenant_id, run.low, run.high;
        IF found.present = run.high - run.low + 1 AND found.others = 0 THEN
          RETURN NULL;
        END IF;
      END IF;
      EXECUTE 'SELECT count(*) FILTER (WHERE r.requirement_id IS NULL) AS missing,
                      count(*) FILTER (WHERE r.xmin <> pg_current_xact_id()::xid) AS others
               FROM new_rows n LEFT JOIN requirements r ON r.tenant_id = n.tenant_id AND r.requirement_id = n.requirement_id'
        INTO found;
      IF found.others > 0 THEN
        EXECUTE 'SELECT 1 FROM requirements r JOIN new_rows n ON r.tenant_id = n.tenant_id AND r.requirement_id = n.requirement_id
                 WHERE r.xmin <> pg_current_xact_id()::xid
                 FOR KEY SHARE OF r';
        GET DIAGNOSTICS locked = ROW_COUNT;
      END IF;
      -- A requirement another transaction deleted between the two reads is missing too.
      IF found.missing > 0 OR locked < found.others THEN
        EXECUTE 'SELECT n.tenant_id, n.requirement_id FROM new_rows n
                 WHERE NOT EXISTS (SELECT 1 FROM requirements r WHERE r.tenant_id = n.tenant_id AND r.requirement_id = n.requirement_id)
                 LIMIT 1'
          INTO missing;
        RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%_requirement"', TG_TABLE_NAME, TG_TABLE_NAME
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = TG_TABLE_NAME || '_requirement',
            DETAIL = format('Key (tenant_id, requirement_id)=(%s, %s) is not present in table "requirements".', missing.tenant_id, missing.requirement_id);
      END IF;
      RETURN NULL;
    END $$`);
}

/** Back to 0014's functions, written by 0014 itself, and 0001's folder index. */
export async function down(knex: Knex): Promise<void> {
  await requirementReferencesPlannedPerStatement.up(knex);
  await knex.raw(
    "CREATE INDEX requirements_tenant_id_project_id_parent_folder_id_index ON requirements (tenant_id, project_id, parent_folder_id)",
  );
  await knex.raw("DROP INDEX requirements_in_folder");
}
