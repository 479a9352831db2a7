import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** LibreOffice's command, when the machine has it (Debian's libreoffice-calc). */
export const soffice = ["/usr/bin/soffice", "/usr/bin/libreoffice"].find((candidate) => existsSync(candidate));

/**
 * A file as LibreOffice opens it and saves it again, headless: `convertTo` is soffice's
 * --convert-to ("xlsx", or "csv:Text - txt - csv (StarCalc):44,34,76,1" for UTF-8 CSV), `infilter`
 * its --infilter when the input needs one. A profile of its own, so a LibreOffice the machine runs
 * elsewhere does not lock this one out.
 */
export async function throughLibreOffice(
  file: { name: string; bytes: string | Buffer },
  convertTo: string,
  infilter?: string,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), "rmcloud-soffice-"));
  try {
    await writeFile(path.join(dir, file.name), file.bytes);
    await promisify(execFile)(
      soffice as string,
      [
        "--headless",
        `-env:UserInstallation=file://${path.join(dir, "profile")}`,
        ...(infilter ? [`--infilter=${infilter}`] : []),
        "--convert-to",
        convertTo,
        "--outdir",
        path.join(dir, "out"),
        path.join(dir, file.name),
      ],
      { timeout: 120_000 },
    );
    const [converted] = await readdir(path.join(dir, "out"));
    if (!converted) throw new Error(`LibreOffice did not convert ${file.name} to ${convertTo}`);
    return await readFile(path.join(dir, "out", converted));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Comma-separated UTF-8 with double quotes, LibreOffice's CSV filter options (input and output alike). */
export const CSV_UTF8 = "CSV:44,34,76,1";
export const TO_CSV_UTF8 = "csv:Text - txt - csv (StarCalc):44,34,76,1";
