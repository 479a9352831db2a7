/** A move target: a folder id, or null for the top level ('Top Level'). */
export type MoveTarget = number | null;

export type MoveRestrictions = {
  /** Where the moved items are now (undefined when they come from several folders). */
  currentFolderId: MoveTarget | undefined;
  /** A folder being moved: it cannot go into itself (nor its descendants, which the picker never opens). */
  movingFolderId?: number;
};

/** Spec section 5: a target is needed, 'Top Level' is allowed, the current folder is not. */
export function canMoveTo(target: MoveTarget, { currentFolderId, movingFolderId }: MoveRestrictions): boolean {
  if (currentFolderId !== undefined && target === currentFolderId) return false;
  return movingFolderId === undefined || target !== movingFolderId;
}

/** The folder all the given items share, or undefined when they sit in different folders. */
export function commonParentFolder(parents: readonly MoveTarget[]): MoveTarget | undefined {
  const [first, ...rest] = parents;
  if (first === undefined) return undefined;
  return rest.every((parent) => parent === first) ? first : undefined;
}
