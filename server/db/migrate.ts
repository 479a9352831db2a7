import { loadConfig } from "../config.js";
import { createDb, dbOptionsFromConfig, migrateToLatest } from "./knex.js";

const config = loadConfig();
const db = createDb(dbOptionsFromConfig(config));
try {
  await migrateToLatest(db);
  console.log("migrations are up to date");
} finally {
  await db.destroy();
}
