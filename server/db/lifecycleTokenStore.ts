import type { Db } from "./knex.js";

/**
 * Records a lifecycle callback's token until it expires; false when it was recorded before (a
 * replay). Run on the callback's transaction: a callback that fails leaves its token unrecorded, and
 * of two deliveries at once the second waits for the first and is refused if it committed.
 * Expired tokens are cleared on the way (a handful a day: installs are rare).
 */
export async function recordLifecycleToken(db: Db, token: { sha256: string; expiresAt: Date }): Promise<boolean> {
  await db("lifecycle_tokens").where("expires_at", "<", db.fn.now()).delete();
  const inserted = await db("lifecycle_tokens")
    .insert({ token_sha256: token.sha256, expires_at: token.expiresAt })
    .onConflict("token_sha256")
    .ignore()
    .returning("token_sha256");
  return inserted.length > 0;
}
