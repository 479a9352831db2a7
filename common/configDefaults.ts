/**
 * The default of every setting that has one (README, Configuration): the embedded first-run setup.
 * The server's config, `npm start`, the emulator and the browser tests all read them here.
 */
export const CONFIG_DEFAULTS = {
  PORT: 3000,
  EMULATOR_PORT: 2990,
  DATA_DIR: ".data",
  S3_BUCKET: "rmcloud",
  S3_REGION: "us-east-1",
  MAIL_FROM: "rmCloud <no-reply@rmcloud.local>",
  LOG_LEVEL: "info",
  CHROMIUM_PATH: "/usr/bin/chromium",
} as const;

/** Where the add-on answers when BASE_URL (or ADDON_URL for the emulator) is not set. */
export const localUrl = (port: number) => `http://localhost:${port}`;
