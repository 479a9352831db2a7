import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

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
      "soffice",
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
    ).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      throw new Error("This test needs LibreOffice: soffice is not on the PATH (apt-get install libreoffice-calc-nogui)");
    });
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
