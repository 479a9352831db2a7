/**
 * A name longer than its row ends in an ellipsis, the whole name in the element's title, instead of
 * widening the row (the tree and the folder pickers); for an element in a flex row.
 */
export const truncated = { minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" } as const;
