import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, it, vi } from "vitest";
import { SharedLimit } from "./rateLimit.js";

/** A limit of `points` a minute over a memory store, with the store's writes counted. */
function limitOf(points: number) {
  const store = new RateLimiterMemory({ points, duration: 60 });
  const consume = vi.spyOn(store, "consume");
  return { limit: new SharedLimit(store, points), consume };
}

describe("a shared rate limit", () => {
  it("writes a quiet key's hits once they have waited five seconds, not on every tick", async () => {
    const { limit, consume } = limitOf(240_000);
    const start = 1_000_000;
    for (let hit = 0; hit < 10; hit++) expect(limit.hit("site-a", start + hit)).toBeUndefined();
    await limit.share(start + 250);
    await limit.share(start + 4_000);
    expect(consume).not.toHaveBeenCalled();
    await limit.share(start + 5_000);
    expect(consume.mock.calls).toEqual([["site-a", 10]]);
  });

  it("writes a busy key's hits at the next tick once they reach a hundredth of its limit", async () => {
    const { limit, consume } = limitOf(1_000);
    const now = 1_000_000;
    for (let hit = 0; hit < 10; hit++) limit.hit("site-a", now);
    for (let hit = 0; hit < 9; hit++) limit.hit("site-b", now);
    await limit.share(now + 250);
    expect(consume.mock.calls).toEqual([["site-a", 10]]);
  });

  it("refuses a key over its limit at once, before any write", () => {
    const { limit, consume } = limitOf(3);
    const now = 1_000_000;
    expect([limit.hit("p", now), limit.hit("p", now), limit.hit("p", now)]).toEqual([undefined, undefined, undefined]);
    expect(limit.hit("p", now)).toBeGreaterThan(0);
    expect(consume).not.toHaveBeenCalled();
  });

  it("goes by the shared count once written, so hits counted by other replicas refuse here too", async () => {
    const store = new RateLimiterMemory({ points: 100, duration: 60 });
    const here = new SharedLimit(store, 100);
    const there = new SharedLimit(store, 100);
    const now = Date.now();
    for (let hit = 0; hit < 99; hit++) there.hit("site-a", now);
    await there.share(now);
    here.hit("site-a", now);
    await here.share(now);
    expect(here.hit("site-a", now)).toBeGreaterThan(0);
  });
});
