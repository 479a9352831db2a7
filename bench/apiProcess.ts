import express from "express";
import type * as Listen from "../server/listen.js";
import type * as Main from "../server/main.js";

/**
 * One API process of `npm run bench:load`: the compiled add-on (dist/, as `npm run start:production`
 * runs it), and in the same process, on BARE_PORT, the bare endpoint the load bench measures it
 * against: GET /bare/{tenant}/{requirement}, one SELECT by the requirements' primary key through the
 * add-on's own connection pool, without token, access check, rate limit or logging. Both sides share
 * this process's event loop, CPU and pool under the same mixed load, so their ratio is what our
 * code adds, not an unequal share of the machine.
 */
const compiled = new URL("../dist/server/server/", import.meta.url);
const { startAddon } = (await import(new URL("main.js", compiled).href)) as typeof Main;
const { listen } = (await import(new URL("listen.js", compiled).href)) as typeof Listen;

const addon = await startAddon();
const { db } = addon.deps;
const bare = express();
bare.get("/bare/:tenantId/:id", async (req, res) => {
  const result = await db.raw(
    "SELECT requirement_id, name, description, revision FROM requirements WHERE tenant_id = ? AND requirement_id = ?",
    [req.params.tenantId, Number(req.params.id)],
  );
  res.json(result.rows[0] ?? null);
});
const bareServer = await listen(bare, Number(process.env.BARE_PORT), "127.0.0.1");

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    // The bare endpoint's requests in flight end before the add-on's stop closes the pool they use.
    void bareServer
      .stop()
      .then(() => addon.stop())
      .then(() => process.exit(0));
  });
}
