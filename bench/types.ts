/** One row of bench/results.json: our code against a bare baseline doing the same work, in the same run. */
export type BenchResult = {
  case: string;
  db: "pglite" | "postgres" | "none";
  ours: number;
  baseline: number;
  /** What ours and baseline measure: a time ("ms"), a rate ending in "/s" ("req/s"), or a count. */
  unit: string;
  /**
   * ours / baseline, in `unit`. For a time or a size (ms, s, bytes) lower is better; for a rate
   * (a unit ending in /s, such as req/s) higher is better. Either way 1 means level with the bare
   * baseline: 0.6 req/s-wise is 60% of its throughput, 0.6 ms-wise is 40% faster than it.
   */
  ratio: number;
  /** What the reader must know to read the figures (e.g. that Jira was made to answer late). */
  note?: string;
};

export type BenchContext = {
  db: "pglite" | "postgres";
  /** Set for the postgres run: a connection string whose database the case may use (a fresh schema is made for it). */
  databaseUrl?: string;
};

/** A benchmark case under bench/cases/: measures, returns rows; never asserts on time. */
export type BenchCase = {
  name: string;
  run(context: BenchContext): Promise<BenchResult[]>;
};
