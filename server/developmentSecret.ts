import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const SECRET_FILE = "app-token-secret";

/**
 * The app-token secret of a development or test data folder that set none: made at random on the
 * folder's first start and kept in it (readable by its owner only), so the add-on, its worker and
 * a restart share it while no one else knows it. A published constant would let anyone who reaches
 * a development instance mint app tokens for any tenant and sign storage URLs.
 */
export function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  // Written whole under a name of its own, then linked into place: of processes starting together on
  // a new folder, the first link wins and no one reads a half-written secret.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, randomBytes(32).toString("hex"), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, "utf8").trim();
}
