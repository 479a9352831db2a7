import { CONFIG_DEFAULTS, localUrl } from "../common/configDefaults.js";
import { startEmulator } from "./server.js";

/** `tsx emulator/main.ts`: the emulator alone (EMULATOR_PORT, ADDON_URL, DATA_DIR, OUTBOX_DIR). */
const emulator = await startEmulator({
  port: Number(process.env.EMULATOR_PORT ?? CONFIG_DEFAULTS.EMULATOR_PORT),
  addonUrl: process.env.ADDON_URL ?? localUrl(CONFIG_DEFAULTS.PORT),
  dataDir: process.env.DATA_DIR ?? CONFIG_DEFAULTS.DATA_DIR,
  outboxDir: process.env.OUTBOX_DIR,
});
console.log(`Emulated Jira and Confluence at ${emulator.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void emulator.stop().then(() => process.exit(0));
  });
}
