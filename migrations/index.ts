import type { Knex } from "knex";
import * as initialSchema from "./0001_initial_schema.js";
import * as requirementTreeIndexes from "./0003_requirement_tree_indexes.js";
import * as hotReadIndexes from "./0007_hot_read_indexes.js";

type Migration = { up: (knex: Knex) => Promise<void>; down: (knex: Knex) => Promise<void> };

/**
 * Numbered, forward-only: append a new file and a line here; never edit a landed one.
 * Listed statically so the same source serves tsx, Vitest and bundled builds.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ["0001_initial_schema", initialSchema],
  ["0003_requirement_tree_indexes", requirementTreeIndexes],
  ["0007_hot_read_indexes", hotReadIndexes],
];
