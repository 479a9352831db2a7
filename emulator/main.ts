import { startEmulator } from "./server.js";

/** `tsx emulator/main.ts`: the emulator alone (EMULATOR_PORT, ADDON_URL, DATA_DIR, OUTBOX_DIR). */
const emulator = await startEmulator({
  port: Number(process.env.EMULATOR_PORT ?? 2990),
  addonUrl: process.env.ADDON_URL ?? "http://localhost:3000",
  dataDir: process.env.DATA_DIR ?? ".data",
  outboxDir: process.env.OUTBOX_DIR,
});
console.log(`Emulated Jira and Confluence at ${emulator.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void emulator.stop().then(() => process.exit(0));
  });
}
