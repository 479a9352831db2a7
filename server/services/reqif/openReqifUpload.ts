import { createReadStream } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { localCopy, startsWithZipMagic } from "../../storage/localCopy.js";
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

/** Archive members that are no content: macOS resource forks and hidden files. */
const isContent = (name: string) => !name.endsWith("/") && !name.startsWith("__MACOSX/") && !path.basename(name).startsWith(".");

/**
 * Reads an uploaded .reqif or .reqifz (told apart by its first bytes, not its name), from a local
 * copy (a .reqifz is a zip, read from its end). A .reqifz holds one .reqif; its other members are
 * offered as embedded files.
 */
export async function openReqifUpload(storage: ObjectStorage, tenantId: string, uuidFileName: string): Promise<OpenedReqif> {
  const { file: local, remove: close } = await localCopy(await storage.getObject(storageKey(tenantId, "imports", uuidFileName)), "reqif");
  try {
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
