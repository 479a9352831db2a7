/**
 * Issue 37: a write over many requirements (a folder's delete, a bulk move or delete) works in
 * batches of this many inside its one transaction, so no statement reads or writes the whole set
 * at once and memory stays flat; the transaction keeps it all or nothing.
 */
export const WRITE_BATCH_ROWS = 1000;

export function batches<T>(items: readonly T[], size = WRITE_BATCH_ROWS): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
