/**
 * The list to save when a dialog replaces a whole list of links (an issue's or a page's
 * requirements): the user's own additions and removals since the dialog loaded, applied to the
 * list as it is now, so a link someone else made meanwhile is kept instead of silently dropped.
 */
export function withLinkChanges(change: { loaded: readonly number[]; chosen: readonly number[]; latest: readonly number[] }): number[] {
  const loaded = new Set(change.loaded);
  const chosen = new Set(change.chosen);
  const kept = change.latest.filter((id) => chosen.has(id) || !loaded.has(id));
  const keptIds = new Set(kept);
  const added = change.chosen.filter((id) => !loaded.has(id) && !keptIds.has(id));
  return [...kept, ...added];
}
