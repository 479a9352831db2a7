import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Every zip archive (.xlsx, .reqifz) begins with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether `bytes`, a file's first, begin as a zip archive does. */
export const isZipStart = (bytes: Buffer): boolean => ZIP_MAGIC.equals(bytes.subarray(0, ZIP_MAGIC.length));

export type LocalCopy = {
  file: string;
  /** Removes the copy; call it once the file is no longer read. */
  remove: () => Promise<void>;
};

/**
 * A stored upload copied to a local temporary file, for a reader that needs random access: a zip
 * is read from its end (its central directory), which a stream from object storage cannot give.
 * The copy keeps memory flat in the file's size.
 */
export async function localCopy(input: Readable, purpose: string): Promise<LocalCopy> {
  const directory = await mkdtemp(path.join(tmpdir(), `rmcloud-${purpose}-`));
  const remove = () => rm(directory, { recursive: true, force: true });
  const file = path.join(directory, "upload");
  try {
    await pipeline(input, createWriteStream(file));
  } catch (error) {
    await remove();
    throw error;
  }
  return { file, remove };
}

export async function startsWithZipMagic(file: string): Promise<boolean> {
  const handle = await open(file);
  try {
    const head = Buffer.alloc(ZIP_MAGIC.length);
    await handle.read(head, 0, head.length, 0);
    return isZipStart(head);
  } finally {
    await handle.close();
  }
}
