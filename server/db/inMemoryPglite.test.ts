import { afterAll, describe, expect, it } from "vitest";
import { growFilesByDoubling, inMemoryPglite } from "./inMemoryPglite.js";

type File = { contents: Uint8Array | null };
type Memfs = { expandFileStorage(file: File, capacity: number): void };

describe("the in-memory database's files", () => {
  const pglite = inMemoryPglite();
  afterAll(() => pglite.close());

  async function memfsOf(): Promise<Memfs> {
    await pglite.waitReady;
    return (pglite as unknown as { mod: { MEMFS: Memfs } }).mod.MEMFS;
  }

  it("grow to twice their capacity, not by an eighth, and keep what was written", async () => {
    const memfs = await memfsOf();
    const written = Uint8Array.from({ length: 3_000_000 }, (_, index) => index % 251);
    const file: File = { contents: written.slice() };

    memfs.expandFileStorage(file, 3_000_000 + 8192);

    expect(file.contents?.length).toBe(6_000_000);
    const grown = Buffer.from(file.contents ?? []);
    expect(grown.subarray(0, 3_000_000).equals(written)).toBe(true);
    expect(grown.subarray(3_000_000).equals(Buffer.alloc(3_000_000))).toBe(true);
  });

  it("grow at once to a size beyond twice their capacity, and not at all within it", async () => {
    const memfs = await memfsOf();
    const file: File = { contents: new Uint8Array(1000) };

    memfs.expandFileStorage(file, 900);
    expect(file.contents?.length).toBe(1000);

    memfs.expandFileStorage(file, 16 * 1024 * 1024);
    expect(file.contents?.length).toBe(16 * 1024 * 1024);
  });

  it("hold a table the database writes through several growths", async () => {
    await pglite.exec("CREATE TABLE notes (body text NOT NULL)");
    await pglite.query("INSERT INTO notes SELECT repeat(md5(i::text), 30) FROM generate_series(1, 5000) i");

    const { rows } = await pglite.query<{ notes: number; bytes: number }>(
      "SELECT count(*)::int AS notes, sum(length(body))::int AS bytes FROM notes",
    );
    expect(rows).toEqual([{ notes: 5000, bytes: 5000 * 32 * 30 }]);
  });
});

describe("growFilesByDoubling", () => {
  it("leaves a file system without Emscripten's growth functions as it is", () => {
    const memfs = { write: () => 0 };

    growFilesByDoubling(memfs);

    expect(Object.keys(memfs)).toEqual(["write"]);
  });
});
