/** One row of bench/results.json: our code against a bare baseline doing the same work, in the same run. */
export type BenchResult = {
  case: string;
  db: "pglite" | "postgres" | "none";
  ours: number;
  baseline: number;
  unit: string;
  /** ours / baseline: lower is better, 1 means as fast as the bare baseline. */
  ratio: number;
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
