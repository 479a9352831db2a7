import type { AddressInfo } from "node:net";
import express from "express";
import type { Db } from "../server/db/knex.js";
import { alternatingMediansMs, round } from "./measure.js";
import type { BenchResult } from "./types.js";

/** One SQL statement as knex hands it to the database, with its bindings. */
export type CapturedStatement = { sql: string; bindings: unknown[] };

export type Server = { url: string; close: () => Promise<void> };

/** Serves an app on a loopback port (a free one by default), connections kept alive between the timed calls. */
export async function listen(app: express.Express, port = 0): Promise<Server> {
  const server = app.listen(port, "127.0.0.1");
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once("listening", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * The statement a call to our endpoint sends (the last one `picks`), captured once so that a bare
 * endpoint can run the very same SQL: the ratio then measures what our endpoint adds around it.
 */
export async function capturedStatement(
  db: Db,
  call: () => Promise<unknown>,
  picks: (sql: string) => boolean = () => true,
): Promise<CapturedStatement> {
  let picked: CapturedStatement | undefined;
  const listener = (query: CapturedStatement) => {
    if (picks(query.sql)) picked = query;
  };
  db.on("query", listener);
  try {
    await call();
  } finally {
    db.off("query", listener);
  }
  if (!picked) throw new Error("The call sent no statement to capture");
  return { sql: picked.sql.replace(/\$\d+/g, "?"), bindings: picked.bindings };
}

/** A bare Express endpoint: GET {path}/:name runs that captured statement and answers its rows, shaped. */
export function bareStatementApp(
  db: Db,
  path: string,
  statements: ReadonlyMap<string, CapturedStatement>,
  shape: (rows: unknown[]) => unknown,
): express.Express {
  const app = express();
  app.get(`${path}/:name`, async (req, res) => {
    const statement = statements.get(req.params.name);
    if (!statement) return void res.status(404).end();
    const result = await db.raw(statement.sql, statement.bindings as never[]);
    res.json(shape(result.rows));
  });
  return app;
}

/**
 * Each named case timed through our endpoint and through the bare one in alternating rounds (so a
 * drift of the machine's load weighs on both alike), as a result row per case in milliseconds.
 */
export async function againstBareEndpoint(
  db: BenchResult["db"],
  cases: readonly { name: string; ours: () => Promise<unknown>; bare: () => Promise<unknown> }[],
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const timed of cases) {
    const [oursMs, bareMs] = await alternatingMediansMs(timed.ours, timed.bare);
    results.push({ case: timed.name, db, ours: round(oursMs, 2), baseline: round(bareMs, 2), unit: "ms", ratio: round(oursMs / bareMs) });
  }
  return results;
}
