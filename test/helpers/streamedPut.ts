import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { expect } from "vitest";
import { ObjectNotFoundError, type ObjectStorage, storageKey } from "../../server/storage/objectStorage.js";

/** `bytes` of deterministic content in 64 KiB chunks, produced lazily as a job's document would be. */
function chunks(bytes: number, failAfter?: number): Readable {
  let sent = 0;
  return Readable.from(
    (async function* () {
      while (sent < bytes) {
        if (failAfter !== undefined && sent >= failAfter) throw new Error("the document failed half way");
        const size = Math.min(64 * 1024, bytes - sent);
        yield Buffer.alloc(size, sent % 251);
        sent += size;
      }
    })(),
  );
}

const sha256 = async (stream: Readable) => {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

/** The streamed put every storage driver must honour: large and small objects arrive whole, a failed stream leaves nothing. */
export async function expectStreamedPutContract(storage: ObjectStorage, tenantId = randomUUID()) {
  const large = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
  const size = 12 * 1024 * 1024 + 12345;
  await storage.putStream(large, chunks(size), "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  expect(await storage.head(large)).toEqual({
    size,
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  });
  expect(await sha256(await storage.getObject(large))).toBe(await sha256(chunks(size)));

  const small = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
  await storage.putStream(small, Readable.from([Buffer.from("PK small")]), "application/zip");
  expect(await storage.head(small)).toEqual({ size: 8, contentType: "application/zip" });

  const failed = storageKey(tenantId, "exports", `${randomUUID()}.docx`);
  await expect(storage.putStream(failed, chunks(size, 6 * 1024 * 1024), "application/zip")).rejects.toThrow("half way");
  expect(await storage.head(failed)).toBeUndefined();
  await expect(storage.getObject(failed)).rejects.toBeInstanceOf(ObjectNotFoundError);
}
