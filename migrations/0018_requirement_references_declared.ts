import type { Knex } from "knex";
import * as setBasedRequirementReferences from "./0013_set_based_requirement_references.js";
import * as requirementReferencesByPrimaryKey from "./0015_requirement_references_by_primary_key.js";

/**
 * A requirement's components and revisions refer to their requirement through declared foreign
 * keys again, instead of the statement triggers of migrations 0013–0015. The triggers saved
 * about a tenth of an import, but hand-wrote what PostgreSQL guarantees: they relied on `xmin`,
 * turned off the planner's seq/hash/merge joins, and needed two further migrations to keep their
 * plans. The foreign keys keep 0001's behaviour (components go with their requirement; a
 * requirement with revisions cannot be deleted), checked after each statement, so an import's
 * one statement that writes requirements, components and revisions together passes them.
 * Added NOT VALID then validated: the check of the existing rows does not block writes.
 * 0015's partial folder index stays: it serves folders' own foreign key.
 */
const REFERENCES = [
  { child: "requirement_components", onDelete: "ON DELETE CASCADE" },
  { child: "requirement_revisions", onDelete: "" },
] as const;

const constraintOf = (child: string) => `${child}_tenant_id_requirement_id_foreign`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER requirements_key_is_fixed ON requirements");
  await knex.raw("DROP TRIGGER requirements_references_on_delete ON requirements");
  for (const { child } of REFERENCES) {
    for (const event of ["insert", "update"]) await knex.raw("DROP TRIGGER ?? ON ??", [`${child}_requirement_on_${event}`, child]);
  }
  await knex.raw("DROP FUNCTION requirement_key_is_fixed()");
  await knex.raw("DROP FUNCTION requirement_references_follow_delete()");
  await knex.raw("DROP FUNCTION requirement_references_exist()");
  for (const { child, onDelete } of REFERENCES) {
    await knex.raw(
      `ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (tenant_id, requirement_id) REFERENCES requirements (tenant_id, requirement_id) ${onDelete} NOT VALID`,
      [child, constraintOf(child)],
    );
    await knex.raw("ALTER TABLE ?? VALIDATE CONSTRAINT ??", [child, constraintOf(child)]);
  }
}

/**
 * Back to the triggers, written by the landed migrations themselves: 0013's (which drops these
 * foreign keys again), then 0015's functions (its down and up leave the indexes as they are).
 */
export async function down(knex: Knex): Promise<void> {
  await setBasedRequirementReferences.up(knex);
  await requirementReferencesByPrimaryKey.down(knex);
  await requirementReferencesByPrimaryKey.up(knex);
}
