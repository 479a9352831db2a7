import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../db/knex.js";
import { AppError } from "../errors.js";
import { authOf } from "./auth.js";

/** Requests a site, and one person of it, may send a minute (RATE_LIMIT_SITE_PER_MINUTE, RATE_LIMIT_ACCOUNT_PER_MINUTE). */
export type RateLimits = { sitePerMinute: number; accountPerMinute: number };

const WINDOW_SECONDS = 60;
/** How often a process looks for counts due to be added to the shared count. */
const SHARE_EVERY_MS = 250;
/**
 * A key's hits wait here until they reach this share of its limit, or have waited STALE_AFTER_MS:
 * what another replica may not yet know of stays below that share.
 */
const SHARE_AT_FRACTION = 0.01;
const STALE_AFTER_MS = 5_000;

export const RATE_LIMITED = "Too many requests from this site or user. Please wait a moment and try again.";

/**
 * One limit (per site or per account) counted in the shared store, the hits of this process added
 * in batches, so the limit costs the hot reads nothing on their way. A key is written when its
 * hits reach SHARE_AT_FRACTION of the limit, or once they have waited STALE_AFTER_MS: the writes
 * follow the traffic's share of the limit, not the number of sites and people sending it (every
 * 250 ms for each of 20 sites and their people was 160 writes a second, each a commit). Between
 * writes this process goes by the count the store last answered plus its own hits since, so a flood
 * is refused here at once and everywhere once each replica has counted a hundredth of the limit.
 */
export class SharedLimit {
  private readonly unshared = new Map<string, { hits: number; since: number }>();
  private readonly shared = new Map<string, { consumed: number; resetsAt: number }>();

  constructor(
    private readonly store: RateLimiterAbstract,
    private readonly points: number,
  ) {}

  /** Counts a request; answers how many milliseconds to wait instead when the key is over its limit. */
  hit(key: string, now: number): number | undefined {
    const known = this.shared.get(key);
    const current = known && known.resetsAt > now ? known : undefined;
    const counted = this.unshared.get(key);
    const hits = (counted?.hits ?? 0) + 1;
    if ((current?.consumed ?? 0) + hits > this.points) return Math.max((current?.resetsAt ?? now + WINDOW_SECONDS * 1000) - now, 1);
    this.unshared.set(key, { hits, since: counted?.since ?? now });
    return undefined;
  }

  /** Adds the hits that are due (SHARE_AT_FRACTION of the limit, or waiting STALE_AFTER_MS) to the shared count. */
  async share(now: number): Promise<void> {
    await this.send(now, (counted) => counted.hits >= this.points * SHARE_AT_FRACTION || now - counted.since >= STALE_AFTER_MS);
  }

  /** Adds every hit this process has counted to the shared count, due or not. */
  async shareAll(): Promise<void> {
    await this.send(Date.now(), () => true);
  }

  private async send(now: number, isDue: (counted: { hits: number; since: number }) => boolean): Promise<void> {
    const due = [...this.unshared].filter(([, counted]) => isDue(counted));
    for (const [key] of due) this.unshared.delete(key);
    for (const [key, known] of this.shared) if (known.resetsAt <= now) this.shared.delete(key);
    await Promise.all(
      due.map(async ([key, { hits }]) => {
        // Over the limit, the store rejects with the same answer: the count and when it resets.
        const answer = await this.store.consume(key, hits).catch((refused: unknown) => {
          if (refused instanceof RateLimiterRes) return refused;
          throw refused;
        });
        this.shared.set(key, { consumed: answer.consumedPoints, resetsAt: Date.now() + answer.msBeforeNext });
      }),
    );
  }
}

/**
 * The store every replica shares: PostgreSQL (rate-limiter-flexible's table, migration 0023). The
 * embedded PGlite belongs to one process, whose memory is then the whole count (its connection is
 * not the `pg` client the library's PostgreSQL store drives).
 */
function storeFor(db: Db, keyPrefix: string, points: number): RateLimiterAbstract {
  const options = { keyPrefix, points, duration: WINDOW_SECONDS };
  if ((db.client.config as { client?: unknown }).client !== "pg") return new RateLimiterMemory(options);
  return new RateLimiterPostgres({ ...options, storeClient: db, storeType: "knex", tableName: "api_rate_limits", tableCreated: true });
}

/**
 * The API's limits in this process: 429 with Retry-After for a site, or a person of it, over their
 * limit; after sign-in, so the site and person are the verified token's. Counting fails open: a store
 * that cannot be reached is logged and nobody is refused for it. The stores are opened, and the counts
 * shared, from the first request on, until stop(): a worker process, which serves none, never opens
 * them (a PostgreSQL store also deletes expired rows every five minutes).
 */
export class ApiRateLimits {
  private counts: { sites: SharedLimit; accounts: SharedLimit; timer: NodeJS.Timeout | undefined } | undefined;
  private sharing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, "warn">,
    private readonly limits: RateLimits,
  ) {}

  readonly middleware: RequestHandler = (req, res, next) => {
    const { tenantId, accountId } = authOf(req);
    const { sites, accounts } = this.countsOf();
    const now = Date.now();
    const waitMs = sites.hit(tenantId, now) ?? accounts.hit(`${tenantId}:${accountId}`, now);
    if (waitMs === undefined) return next();
    res.set("Retry-After", String(Math.ceil(waitMs / 1000)));
    next(new AppError(429, { Result: RATE_LIMITED }));
  };

  /**
   * Adds every hit not yet shared to the shared count and shares no more: called once no request is
   * in flight and before the database closes, so a replica that stops neither drops its last seconds
   * of hits nor asks a closed pool for a connection.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.counts?.timer);
    await this.sharing;
    await this.share((limit) => limit.shareAll());
  }

  private countsOf(): { sites: SharedLimit; accounts: SharedLimit } {
    this.counts ??= {
      sites: this.limitOf("site", this.limits.sitePerMinute),
      accounts: this.limitOf("account", this.limits.accountPerMinute),
      timer: this.stopped ? undefined : this.shareEvery(),
    };
    return this.counts;
  }

  private limitOf(keyPrefix: string, points: number): SharedLimit {
    return new SharedLimit(storeFor(this.db, keyPrefix, points), points);
  }

  private shareEvery(): NodeJS.Timeout {
    const timer = setInterval(() => {
      // A tick while the last one still waits on the store is skipped: the hits stay counted for the next.
      this.sharing ??= this.share((limit) => limit.share(Date.now())).finally(() => {
        this.sharing = undefined;
      });
    }, SHARE_EVERY_MS);
    timer.unref();
    return timer;
  }

  private async share(send: (limit: SharedLimit) => Promise<void>): Promise<void> {
    if (!this.counts) return;
    const { sites, accounts } = this.counts;
    await Promise.all([send(sites), send(accounts)]).catch((err: unknown) =>
      this.logger.warn({ err }, "rate limit counts could not be shared"),
    );
  }
}
