import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import type { ObjectStorage } from "../../storage/objectStorage.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { ReqifDocument } from "./reqifDocument.js";
import { ReqifFileError, readReqif } from "./readReqif.js";

/** A file of a .reqifz beside its .reqif (an image or OLE object the text shows). */
export type EmbeddedFile = { name: string; size: number; open: () => Promise<Readable> };

export type OpenedReqif = {
  document: ReqifDocument;
  files: EmbeddedFile[];
  /** Removes the local copy; call it when the files are no longer needed. */
  close: () => Promise<void>;
};

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Archive members that are no content: macOS resource forks and hidden files. */
const isContent = (name: string) => !name.endsWith("/") && !name.startsWith("__MACOSX/") && !path.basename(name).startsWith(".");

/**
 * Reads an uploaded .reqif or .reqifz (told apart by its first bytes, not its name). The upload
 * is copied to a local temporary file first: a zip is read from its end (random access), and the
 * copy keeps memory flat in the file's size either way. A .reqifz holds one .reqif; its other
 * members are offered as embedded files.
 */
export async function openReqifUpload(storage: ObjectStorage, tenantId: string, uuidFileName: string): Promise<OpenedReqif> {
  const directory = await mkdtemp(path.join(tmpdir(), "rmcloud-reqif-"));
  const close = () => rm(directory, { recursive: true, force: true });
  try {
    const local = path.join(directory, "upload");
    await pipeline(await storage.getObject(storageKey(tenantId, "imports", uuidFileName)), createWriteStream(local));
    if (!(await startsWithZipMagic(local))) return { document: await readReqif(createReadStream(local)), files: [], close };
    const archive = await readArchive(local);
    return {
      document: archive.document,
      files: archive.files,
      close: async () => {
        archive.zip.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function startsWithZipMagic(file: string): Promise<boolean> {
  const handle = await open(file);
  try {
    const head = Buffer.alloc(ZIP_MAGIC.length);
    await handle.read(head, 0, head.length, 0);
    return head.equals(ZIP_MAGIC);
  } finally {
    await handle.close();
  }
}

async function readArchive(local: string): Promise<{ document: ReqifDocument; files: EmbeddedFile[]; zip: yauzl.ZipFile }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(local, { lazyEntries: true, autoClose: false });
  } catch (error) {
    throw new ReqifFileError(`the .reqifz archive could not be opened: ${(error as Error).message}`);
  }
  const entries: yauzl.Entry[] = [];
  try {
    for await (const entry of zip.eachEntry()) if (isContent(entry.fileName)) entries.push(entry);
    return { ...(await readMembers(zip, entries)), zip };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function readMembers(zip: yauzl.ZipFile, entries: yauzl.Entry[]): Promise<{ document: ReqifDocument; files: EmbeddedFile[] }> {
  const reqifs = entries.filter((entry) => /\.reqif$/i.test(entry.fileName));
  const [main] = reqifs;
  if (!main) throw new ReqifFileError("the .reqifz archive holds no .reqif file");
  if (reqifs.length > 1) throw new ReqifFileError(`the .reqifz archive holds ${reqifs.length} .reqif files; one is imported at a time`);
  const document = await readReqif(await zip.openReadStreamPromise(main));
  const files = entries
    .filter((entry) => entry !== main)
    .map((entry) => ({ name: entry.fileName, size: entry.uncompressedSize, open: () => zip.openReadStreamPromise(entry) }));
  return { document, files };
}
