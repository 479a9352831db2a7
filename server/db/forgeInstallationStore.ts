import type { Db } from "./knex.js";

/**
 * The Forge installation ("Connect on Forge") of a Connect installation. A Forge installation id
 * belongs to one installation: associating it with another clientKey moves it there.
 */
export async function associateForgeInstallation(db: Db, forgeInstallationId: string, clientKey: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx("installations")
      .where({ forge_installation_id: forgeInstallationId })
      .whereNot({ client_key: clientKey })
      .update({ forge_installation_id: null });
    await trx("installations").where({ client_key: clientKey }).update({ forge_installation_id: forgeInstallationId });
  });
}

export async function clientKeyOfForgeInstallation(db: Db, forgeInstallationId: string): Promise<string | undefined> {
  const row = await db("installations").where({ forge_installation_id: forgeInstallationId }).first("client_key");
  return row?.client_key;
}

export async function forgetForgeInstallation(db: Db, forgeInstallationId: string): Promise<void> {
  await db("installations").where({ forge_installation_id: forgeInstallationId }).update({ forge_installation_id: null });
}
