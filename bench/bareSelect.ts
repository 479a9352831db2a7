import express from "express";
import { createDb } from "../server/db/knex.js";
import { listen } from "./statementEndpoint.js";

/**
 * The bare endpoint `npm run bench:load` measures the product against, in a process of its own
 * like each API process: Express and a pool of the same size on the same database, answering
 * GET /bare/{tenant}/{requirement} with one SELECT by the requirements' primary key. No token,
 * no access check, no logging: what any endpoint reading one row costs on this machine right now.
 */
const db = createDb({ kind: "postgres", connectionString: process.env.DATABASE_URL ?? "" });
const app = express();
app.get("/healthz", (_req, res) => void res.json({ ok: true }));
app.get("/bare/:tenantId/:id", async (req, res) => {
  const result = await db.raw(
    "SELECT requirement_id, name, description, revision FROM requirements WHERE tenant_id = ? AND requirement_id = ?",
    [req.params.tenantId, Number(req.params.id)],
  );
  res.json(result.rows[0] ?? null);
});
await listen(app, Number(process.env.PORT));
process.once("SIGTERM", () => void db.destroy().then(() => process.exit(0)));
