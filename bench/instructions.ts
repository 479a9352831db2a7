import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { createDb, type Db } from "../server/db/knex.js";
import { csvOf, fileRows, importJob, onNewDatabase, requirementsCopy, type Site, stagedCopy } from "./importFixture.js";
import { round } from "./measure.js";
import type { BenchResult } from "./types.js";

/**
 * `npm run bench:instructions`: the import job of ROWS rows against a bare COPY of them into
 * `requirements`, counted in the instructions a PostgreSQL backend executes (valgrind's callgrind)
 * instead of timed. Wall-clock ratios swing by a fifth between identical runs on a shared machine;
 * an instruction count repeats to a tenth of a percent, so it tells whether a change to the import's
 * statements made the database's work smaller. It counts the database only: Node's part of the job
 * (parse, checks, parameters) runs beside it on PostgreSQL and is timed by `import-100k`.
 *
 * Needs valgrind and PostgreSQL's server binaries (PG_BINDIR, else `pg_config --bindir`). It starts
 * its own cluster under callgrind in a temporary directory (as the `postgres` user when run as
 * root, since initdb refuses root) and measures each side on a new schema, with a new connection
 * whose backend's total, less an idle connection's, is the side's count.
 */
const ROWS = Number(process.env.INSTRUCTIONS_BENCH_ROWS ?? 20_000);
const SERVER_START_SECONDS = 180;
/** How long a backend that has exited may take to write its counts (callgrind dumps them at exit). */
const COUNTS_WAIT_SECONDS = 60;

const asRoot = process.getuid?.() === 0;
const binDir = process.env.PG_BINDIR ?? execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();

/** A command run as the user the cluster belongs to. */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

const serverBinary = (name: string) => path.join(binDir, name);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type CountedServer = { url: string; countsDir: string; stop: () => void };

async function startCountedServer(): Promise<CountedServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-instructions-"));
  const dataDir = path.join(root, "data");
  const countsDir = path.join(root, "counts");
  fs.mkdirSync(countsDir);
  if (asRoot) execFileSync("chown", ["-R", "postgres", root]);
  execFileSync(...asClusterOwner(serverBinary("initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync"]), {
    stdio: "ignore",
  });
  const port = await freePort();
  const postgres = spawn(
    ...asClusterOwner("valgrind", [
      "--tool=callgrind",
      "--trace-children=yes",
      "--vgdb=no",
      `--callgrind-out-file=${path.join(countsDir, "cg.%p")}`,
      serverBinary("postgres"),
      ...["-D", dataDir, "-p", String(port), "-k", root, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
    ]),
    { stdio: "ignore" },
  );
  const stop = () => {
    // Not execFileSync: a server that never came up must not hide why with pg_ctl's own failure.
    spawnSync(...asClusterOwner(serverBinary("pg_ctl"), ["stop", "-D", dataDir, "-m", "fast", "-s"]), { stdio: "ignore" });
    postgres.kill();
    fs.rmSync(root, { recursive: true, force: true });
  };
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let waited = 0; waited < SERVER_START_SECONDS; waited += 1) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return { url, countsDir, stop };
    } catch {
      await sleep(1000);
    }
  }
  stop();
  throw new Error(`PostgreSQL under callgrind did not answer within ${SERVER_START_SECONDS} s`);
}

/** The instructions of `work` on a new connection: its backend's total, written by callgrind when the backend exits. */
async function instructionsOf(counted: CountedServer, site: Site, work: (db: Db) => Promise<void>): Promise<number> {
  const searchPath = (site.db.client.config as { searchPath?: string[] }).searchPath?.[0];
  const db = createDb({ kind: "postgres", connectionString: counted.url, searchPath, poolSize: 1 });
  const { rows } = await db.raw("SELECT pg_backend_pid() AS pid");
  await work(db);
  await db.destroy();
  const file = path.join(counted.countsDir, `cg.${rows[0].pid}`);
  for (let waited = 0; waited < COUNTS_WAIT_SECONDS * 10; waited += 1) {
    const totals = fs.existsSync(file) ? /^totals: (\d+)/m.exec(fs.readFileSync(file, "utf8")) : null;
    if (totals) {
      fs.rmSync(file);
      return Number(totals[1]);
    }
    await sleep(100);
  }
  throw new Error(`callgrind wrote no totals to ${file}`);
}

const counted = await startCountedServer();
try {
  const context = { db: "postgres" as const, databaseUrl: counted.url };
  const rows = fileRows(ROWS);
  const fileContent = csvOf(rows);
  const count = (work: (site: Site) => Promise<(db: Db) => Promise<void>>) =>
    onNewDatabase(context, async (site) => {
      const idle = await instructionsOf(counted, site, async () => undefined);
      const measured = await work(site);
      return (await instructionsOf(counted, site, measured)) - idle;
    });
  const copy = await count(async (site) => (db) => stagedCopy(db, "postgres", [requirementsCopy(rows, site.tenantId, site.type)])());
  const job = await count((site) => importJob(site, fileContent, ROWS));
  const perRow = (instructions: number) => round(instructions / ROWS / 1000, 1);
  const result: BenchResult = {
    case: `import-${ROWS / 1000}k-instructions`,
    db: "postgres",
    ours: perRow(job),
    baseline: perRow(copy),
    unit: "k instructions/row",
    ratio: round(job / copy),
  };
  console.table([result]);
  console.log(`rows/s equivalent of the ratio (higher is better, goal 0.5): ${round(copy / job)}`);
} finally {
  counted.stop();
}
process.exit();
