import { type Extensions, MemoryFS, PGlite } from "@electric-sql/pglite";

/** The parts of Emscripten's in-memory file system (MEMFS) that decide how a file grows. */
type MemoryFileSystem = {
  expandFileStorage?: (file: MemoryFile, capacity: number) => void;
  getFileDataAsTypedArray?: (file: MemoryFile) => Uint8Array;
};
type MemoryFile = { contents: Uint8Array | null };

/**
 * Emscripten grows a file above 1 MB by an eighth at a time, each time into a new array that the
 * whole file is copied into: a file copies about eight times its final size while it is written.
 * PostgreSQL writes its tables and its WAL segments a page at a time, so the in-memory database
 * spent 2.8 of an import's 9.5 s of 100,000 rows (and 0.8 of a bare COPY's 4.4 s) growing arrays.
 * Doubling copies each file about twice its size, at the cost of up to half its capacity unused.
 * An Emscripten without these functions keeps its own growth (inMemoryPglite.test.ts then fails).
 */
export function growFilesByDoubling(fileSystem: object): void {
  const memfs = fileSystem as MemoryFileSystem;
  const { getFileDataAsTypedArray } = memfs;
  if (typeof memfs.expandFileStorage !== "function" || typeof getFileDataAsTypedArray !== "function") return;
  memfs.expandFileStorage = (file, wanted) => {
    const capacity = file.contents?.length ?? 0;
    if (capacity >= wanted) return;
    const written = getFileDataAsTypedArray.call(memfs, file);
    file.contents = new Uint8Array(Math.max(wanted, capacity * 2, 256));
    file.contents.set(written);
  };
}

/** MemoryFS, whose files grow by doubling (growFilesByDoubling) from the database's first start. */
class DoublingMemoryFS extends MemoryFS {
  override async init(...[pg, options]: Parameters<MemoryFS["init"]>): ReturnType<MemoryFS["init"]> {
    const { emscriptenOpts } = await super.init(pg, options);
    const growByDoubling = (mod: { MEMFS: object }) => growFilesByDoubling(mod.MEMFS);
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), growByDoubling] } };
  }
}

/** A PGlite database that lives in memory (tests, benchmarks): gone when it is closed. */
export function inMemoryPglite(extensions: Extensions = {}): PGlite {
  return new PGlite({ fs: new DoublingMemoryFS(), extensions });
}
