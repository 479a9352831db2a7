import type { FolderItem, LevelWindow, LoadedLevel, RequirementItem, TreeItem } from "../../api/items.js";

export function isFolderItem(item: TreeItem): item is FolderItem {
  return item.type === "folder";
}

type RowBase = {
  /** Stable across renders and unique in the tree: also the DOM id suffix of the row. */
  key: string;
  /** 1-based depth, as aria-level wants it. */
  level: number;
  /** Index of the parent folder's row, or -1 at the top level. */
  parentIndex: number;
  /** aria-posinset and aria-setsize: a virtualised tree renders only some siblings. */
  positionInSet: number;
  setSize: number;
};

export type FolderRow = RowBase & {
  kind: "folder";
  folder: FolderItem;
  hasChildren: boolean;
  isExpanded: boolean;
};

export type RequirementRow = RowBase & { kind: "requirement"; requirement: RequirementItem };

/**
 * Placeholder under an open folder whose children are still on their way, or for an item of a
 * level whose window has not come yet (`slot` says which, so the tree can ask for it).
 */
export type LoadingRow = RowBase & { kind: "loading"; slot?: { parentFolderId: number | null; position: number } };

export type TreeRow = FolderRow | RequirementRow | LoadingRow;

/** Items of a level whose window has not come yet: one entry however many they are. */
type Gap = {
  kind: "gap";
  count: number;
  level: number;
  parentIndex: number;
  parentFolderId: number | null;
  /** Position in its level of the gap's first item. */
  firstPosition: number;
  setSize: number;
  windowItems: number;
};

export function folderHasChildren(folder: FolderItem): boolean {
  return folder.has_descendant_folders || folder.has_descendant_requirements;
}

const gapKey = (gap: Gap, position: number) => `l${gap.parentFolderId ?? "top"}-${position}`;

const isFocusable = (entry: TreeRow | Gap) => entry.kind === "folder" || entry.kind === "requirement";

/**
 * The rows the tree shows, in screen order, reached by index. A level of 100,000 requirements of
 * which one window has come is 500 rows and one gap, not 100,000 row objects (issue 37): what the
 * tree costs follows the windows loaded, and a gap's placeholder rows are made only when the
 * virtualised tree asks for the ones on screen.
 */
export class TreeRows {
  /**
   * One entry per loaded row, one per gap, in screen order (flattenTree builds them); `starts[n]`
   * is the index of entry n's first row.
   */
  constructor(
    private readonly entries: readonly (TreeRow | Gap)[],
    private readonly starts: readonly number[],
    readonly length: number,
  ) {}

  /** The entry holding row `index` (binary search over the entries' starts). */
  private entryAt(index: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  at(index: number): TreeRow | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const n = this.entryAt(index);
    const entry = this.entries[n] as TreeRow | Gap;
    if (entry.kind !== "gap") return entry;
    const position = entry.firstPosition + index - (this.starts[n] as number);
    return {
      kind: "loading",
      key: gapKey(entry, position),
      level: entry.level,
      parentIndex: entry.parentIndex,
      positionInSet: position + 1,
      setSize: entry.setSize,
      slot: { parentFolderId: entry.parentFolderId, position },
    };
  }

  /** The key of row `index`, without making a placeholder row for it (the virtualiser asks for every row's). */
  keyAt(index: number): string | number {
    if (index < 0 || index >= this.length) return index;
    const n = this.entryAt(index);
    const entry = this.entries[n] as TreeRow | Gap;
    return entry.kind === "gap" ? gapKey(entry, entry.firstPosition + index - (this.starts[n] as number)) : entry.key;
  }

  /** The index of the first loaded row that matches (placeholders never do), or -1. */
  findIndex(match: (row: TreeRow) => boolean): number {
    for (let n = 0; n < this.entries.length; n++) {
      const entry = this.entries[n] as TreeRow | Gap;
      if (entry.kind !== "gap" && match(entry)) return this.starts[n] as number;
    }
    return -1;
  }

  find(match: (row: TreeRow) => boolean): TreeRow | undefined {
    return this.at(this.findIndex(match));
  }

  some(match: (row: TreeRow) => boolean): boolean {
    return this.findIndex(match) >= 0;
  }

  /**
   * The next row after `from` (or before it, going up) that the keyboard can land on: a folder or a
   * requirement, jumping over placeholders and whole gaps at once. `from` may be -1 or `length`.
   */
  nextFocusable(from: number, direction: 1 | -1): number | undefined {
    const index = from + direction;
    if (index < 0 || index >= this.length) return undefined;
    let n = this.entryAt(index);
    // A row of a gap: the gap itself is skipped.
    for (; n >= 0 && n < this.entries.length; n += direction) {
      if (isFocusable(this.entries[n] as TreeRow | Gap)) return this.starts[n] as number;
    }
    return undefined;
  }

  /** Folders shown expanded: the ones whose children the tree must fetch. */
  expandedFolderIds(): number[] {
    const ids: number[] = [];
    for (const entry of this.entries) if (entry.kind === "folder" && entry.isExpanded) ids.push(entry.folder.folder_id);
    return ids;
  }

  /** The windows that hold the placeholders among rows `first` to `last`, once each. */
  windowsIn(first: number, last: number): LevelWindow[] {
    const windows = new Map<string, LevelWindow>();
    if (this.length === 0) return [];
    for (let n = this.entryAt(Math.max(first, 0)); n < this.entries.length && (this.starts[n] as number) <= last; n++) {
      const entry = this.entries[n] as TreeRow | Gap;
      if (entry.kind !== "gap") continue;
      const start = this.starts[n] as number;
      const from = entry.firstPosition + Math.max(first - start, 0);
      const to = entry.firstPosition + Math.min(last - start, entry.count - 1);
      for (let window = Math.floor(from / entry.windowItems); window <= Math.floor(to / entry.windowItems); window++) {
        windows.set(`${entry.parentFolderId}:${window}`, { parentFolderId: entry.parentFolderId, window });
      }
    }
    return [...windows.values()];
  }
}

/**
 * The rows the tree shows, in screen order: the top level, and under each open folder its
 * children once they are loaded. A level may have gaps (windows not loaded yet): each shows as
 * placeholder rows in its place, so the tree keeps the level's full height. Only these rows are
 * virtualised, so their cost is what decides how a folder of thousands of requirements scrolls.
 */
export function flattenTree(
  topLevel: LoadedLevel,
  childrenByFolder: ReadonlyMap<number, LoadedLevel>,
  openFolders: ReadonlySet<number>,
): TreeRows {
  const entries: (TreeRow | Gap)[] = [];
  const starts: number[] = [];
  let length = 0;
  const add = (entry: TreeRow | Gap) => {
    const count = entry.kind === "gap" ? entry.count : 1;
    if (count === 0) return;
    starts.push(length);
    entries.push(entry);
    length += count;
  };
  const visit = (items: LoadedLevel, level: number, parentIndex: number, parentFolderId: number | null) => {
    const setSize = items.total;
    const windowCount = Math.ceil(setSize / items.windowItems);
    for (let window = 0; window < windowCount; window++) {
      const from = window * items.windowItems;
      const to = Math.min(from + items.windowItems, setSize);
      const loaded = items.windows.get(window) ?? [];
      const shown = Math.min(loaded.length, to - from);
      for (let offset = 0; offset < shown; offset++) {
        const item = loaded[offset] as TreeItem;
        const placement = { level, parentIndex, positionInSet: from + offset + 1, setSize };
        if (!isFolderItem(item)) {
          add({ kind: "requirement", key: `r${item.requirement_id}`, ...placement, requirement: item });
          continue;
        }
        const hasChildren = folderHasChildren(item);
        const isExpanded = hasChildren && openFolders.has(item.folder_id);
        const index = length;
        add({ kind: "folder", key: `f${item.folder_id}`, ...placement, folder: item, hasChildren, isExpanded });
        if (!isExpanded) continue;
        const children = childrenByFolder.get(item.folder_id);
        if (children) visit(children, level + 1, index, item.folder_id);
        else add({ kind: "loading", key: `l${item.folder_id}`, level: level + 1, parentIndex: index, positionInSet: 1, setSize: 1 });
      }
      add({
        kind: "gap",
        count: to - from - shown,
        level,
        parentIndex,
        parentFolderId,
        firstPosition: from + shown,
        setSize,
        windowItems: items.windowItems,
      });
    }
  };
  visit(topLevel, 1, -1, null);
  return new TreeRows(entries, starts, length);
}

export type TreeSelection = { requirementId?: number; folderId?: number };

export function rowIsCurrent(row: TreeRow, current: TreeSelection): boolean {
  if (row.kind === "folder") return row.folder.folder_id === current.folderId;
  if (row.kind === "requirement") return row.requirement.requirement_id === current.requirementId;
  return false;
}

export function indexOfCurrent(rows: TreeRows, current: TreeSelection): number {
  return rows.findIndex((row) => rowIsCurrent(row, current));
}
