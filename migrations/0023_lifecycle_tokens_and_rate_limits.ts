import type { Knex } from "knex";

/**
 * `lifecycle_tokens`: every install and uninstall callback's JWT (its SHA-256) until it expires, so
 * the same signed callback is accepted once, by whichever replica receives it: the signature does
 * not cover the body, and a replayed token with another body could re-point a site.
 * `api_rate_limits`: rate-limiter-flexible's counters (its PostgreSQL layout: key, points, expire in
 * milliseconds), shared by every replica.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE lifecycle_tokens (
      token_sha256 text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    )
  `);
  await knex.raw("CREATE INDEX lifecycle_tokens_expires_at ON lifecycle_tokens (expires_at)");
  await knex.raw(`
    CREATE TABLE api_rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE IF EXISTS api_rate_limits");
  await knex.raw("DROP TABLE IF EXISTS lifecycle_tokens");
}
