import type { Knex } from "knex";
import * as setBasedRequirementReferences from "./0013_set_based_requirement_references.js";

/**
 * The reference checks of migration 0013, planned anew for every statement. PL/pgSQL keeps the
 * plan of a query without parameters for the life of the connection, made with the sizes of the
 * first call: a connection whose first check met a nearly empty requirements table (a new site's
 * first import) went on probing by tenant alone and filtering every requirement of the site for
 * each row, 1.5 s for 1,000 components at 30,000 requirements. EXECUTE plans each statement with
 * the rows it checks and the table as it is now; planning costs a fraction of a millisecond.
 * Behaviour, error codes and locks are those of 0013.
 */
const PROBE_BY_KEY = "SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION requirement_references_exist() RETURNS trigger LANGUAGE plpgsql ${PROBE_BY_KEY} AS $$
    DECLARE
      missing record;
      found record;
      locked bigint := 0;
    BEGIN
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
  await knex.raw(`
    CREATE OR REPLACE FUNCTION requirement_references_follow_delete() RETURNS trigger LANGUAGE plpgsql ${PROBE_BY_KEY} AS $$
    DECLARE
      referenced boolean;
    BEGIN
      EXECUTE 'DELETE FROM requirement_components c USING old_rows o WHERE c.tenant_id = o.tenant_id AND c.requirement_id = o.requirement_id';
      EXECUTE 'SELECT EXISTS (SELECT 1 FROM requirement_revisions v JOIN old_rows o ON v.tenant_id = o.tenant_id AND v.requirement_id = o.requirement_id)'
        INTO referenced;
      IF referenced THEN
        RAISE EXCEPTION 'update or delete on table "requirements" violates foreign key constraint "requirement_revisions_requirement" on table "requirement_revisions"'
          USING ERRCODE = 'foreign_key_violation', TABLE = 'requirement_revisions', CONSTRAINT = 'requirement_revisions_requirement';
      END IF;
      RETURN NULL;
    END $$`);
}

/** Back to 0013's functions, written by 0013 itself. */
export async function down(knex: Knex): Promise<void> {
  await setBasedRequirementReferences.down(knex);
  await setBasedRequirementReferences.up(knex);
}
