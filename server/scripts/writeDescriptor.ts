import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { jiraDescriptorFileText } from "../connect/modules.js";

/** Regenerates the top-level atlassian-connect.json from server/connect/modules.ts. */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../atlassian-connect.json");
fs.writeFileSync(target, jiraDescriptorFileText());
console.log(`Wrote ${target}`);
