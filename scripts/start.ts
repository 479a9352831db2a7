import { startAddon } from "../server/main.js";

await startAddon();
