import { scrollPaneRect, scrollPaneStyle } from "../ScrollPane/scrollPaneStyle.js";
import ChevronDownIcon from "@atlaskit/icon/core/chevron-down";
import ChevronRightIcon from "@atlaskit/icon/core/chevron-right";
import FolderClosedIcon from "@atlaskit/icon/core/folder-closed";
import FolderOpenIcon from "@atlaskit/icon/core/folder-open";
import PageIcon from "@atlaskit/icon/core/page";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { requirementLabel } from "../../../common/labels.js";
import { indexOfCurrent, rowIsCurrent, type TreeRow, type TreeRows, type TreeSelection } from "./flattenTree.js";
import { truncated } from "../TruncatedName/truncated.js";
import { treeKeyAction } from "./treeKeyboard.js";

const ROW_HEIGHT = 32;
const INDENT = 20;
/** The screen's height above and below the scrolling pane. */
const PANE_CHROME = 180;

export type RequirementTreeProps = {
  rows: TreeRows;
  current: TreeSelection;
  checked: ReadonlySet<number>;
  onToggleFolder(folderId: number, open: boolean): void;
  onToggleCheck(requirementId: number): void;
  /** Enter or a click on a row's name: show its detail. */
  onOpen(row: TreeRow): void;
  /** The rows in the DOM (first and last index) changed: their windows may need loading. */
  onRowsInView?(first: number, last: number): void;
};

/**
 * Folders and requirements as an ARIA tree. Focus stays on the tree element and the active row is
 * announced through aria-activedescendant, because with virtualisation the active row may not be
 * in the DOM at all.
 */
export function RequirementTree({ rows, current, checked, onToggleFolder, onToggleCheck, onOpen, onRowsInView }: RequirementTreeProps) {
  const idPrefix = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  const [activeKey, setActiveKey] = useState<string | undefined>();
  // The active row's focus ring only while the tree has the keyboard, as in Atlaskit's tree.
  const [hasFocus, setHasFocus] = useState(false);
  const activeIndex = activeKey === undefined ? -1 : rows.findIndex((row) => row.key === activeKey);
  // Stable while the rows are: the virtualiser measures every row again when it changes.
  const itemKey = useCallback((index: number) => rows.keyAt(index), [rows]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    initialRect: scrollPaneRect(PANE_CHROME),
    estimateSize: () => ROW_HEIGHT,
    getItemKey: itemKey,
    overscan: 12,
  });

  const virtualRows = virtualizer.getVirtualItems();
  const firstInView = virtualRows[0]?.index ?? 0;
  const lastInView = virtualRows.at(-1)?.index ?? 0;
  useEffect(() => onRowsInView?.(firstInView, lastInView), [firstInView, lastInView, onRowsInView]);

  const currentIndex = indexOfCurrent(rows, current);
  const currentKey = rows.at(currentIndex)?.key;
  const currentIndexRef = useRef(currentIndex);
  currentIndexRef.current = currentIndex;
  const followed = useRef<string | undefined>(undefined);
  const selection = `${current.requirementId}/${current.folderId}`;
  // Following the current item (deep links, back/forward, a linked requirement's click): make
  // it the active row and bring it into view once its row exists, once per current item. A folder
  // expanded or collapsed by the keyboard moves the current row (or hides and shows it again), and
  // the focus must stay on that folder (the WAI-ARIA tree pattern).
  useEffect(() => {
    if (currentKey === undefined || followed.current === selection) return;
    followed.current = selection;
    setActiveKey(currentKey);
    virtualizer.scrollToIndex(currentIndexRef.current, { align: "auto" });
  }, [currentKey, selection, virtualizer]);

  const rowId = (row: TreeRow) => `${idPrefix}-${row.key}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = treeKeyAction(rows, activeIndex, event.key);
    if (!action) return;
    event.preventDefault();
    switch (action.type) {
      case "focus":
        setActiveKey(rows.at(action.index)?.key);
        virtualizer.scrollToIndex(action.index, { align: "auto" });
        return;
      case "expand":
        onToggleFolder(action.folderId, true);
        return;
      case "collapse":
        onToggleFolder(action.folderId, false);
        return;
      case "toggleCheck":
        onToggleCheck(action.requirementId);
        return;
      case "open":
        onOpen(action.row);
        return;
    }
  };

  const activate = (row: TreeRow) => {
    setActiveKey(row.key);
    treeRef.current?.focus({ preventScroll: true });
  };

  const activeRow = rows.at(activeIndex);
  return (
    <div ref={scrollRef} style={scrollPaneStyle(PANE_CHROME)}>
      <div
        ref={treeRef}
        role="tree"
        aria-label="Requirements and folders"
        aria-multiselectable="true"
        tabIndex={0}
        aria-activedescendant={activeRow ? rowId(activeRow) : undefined}
        onKeyDown={onKeyDown}
        onFocus={() => setHasFocus(true)}
        onBlur={() => setHasFocus(false)}
        style={{ height: virtualizer.getTotalSize(), position: "relative", outline: "none" }}
      >
        {virtualRows.map((virtualRow) => {
          const row = rows.at(virtualRow.index);
          if (!row) return null;
          return (
            <TreeRowView
              key={row.key}
              id={rowId(row)}
              row={row}
              top={virtualRow.start}
              isActive={hasFocus && row.key === activeKey}
              isCurrent={rowIsCurrent(row, current)}
              isChecked={row.kind === "requirement" && checked.has(row.requirement.requirement_id)}
              onActivate={() => activate(row)}
              onToggleFolder={onToggleFolder}
              onToggleCheck={onToggleCheck}
              onOpen={() => onOpen(row)}
            />
          );
        })}
      </div>
    </div>
  );
}

type TreeRowViewProps = {
  id: string;
  row: TreeRow;
  top: number;
  isActive: boolean;
  isCurrent: boolean;
  isChecked: boolean;
  onActivate(): void;
  onToggleFolder(folderId: number, open: boolean): void;
  onToggleCheck(requirementId: number): void;
  onOpen(): void;
};

function TreeRowView({
  id,
  row,
  top,
  isActive,
  isCurrent,
  isChecked,
  onActivate,
  onToggleFolder,
  onToggleCheck,
  onOpen,
}: TreeRowViewProps) {
  const style = {
    position: "absolute" as const,
    top: 0,
    left: 0,
    right: 0,
    height: ROW_HEIGHT,
    transform: `translateY(${top}px)`,
    display: "flex",
    alignItems: "center",
    gap: token("space.050"),
    paddingLeft: (row.level - 1) * INDENT + 4,
    boxSizing: "border-box" as const,
    cursor: "pointer",
    whiteSpace: "nowrap" as const,
    background: isCurrent ? token("color.background.selected") : undefined,
    outline: isActive ? `2px solid ${token("color.border.focused")}` : undefined,
    outlineOffset: -2,
  };
  const common = {
    id,
    "aria-level": row.level,
    "aria-posinset": row.positionInSet,
    "aria-setsize": row.setSize,
    // Keep the focus on the tree itself (aria-activedescendant), even when a row is clicked.
    onMouseDown: (event: { preventDefault(): void }) => {
      event.preventDefault();
      onActivate();
    },
    onClick: row.kind === "loading" ? undefined : onOpen,
    style,
  };

  if (row.kind === "loading") {
    return (
      <div role="treeitem" tabIndex={-1} {...common} aria-busy="true">
        <Spinner size="small" label="Loading" />
      </div>
    );
  }

  if (row.kind === "folder") {
    const { folder } = row;
    return (
      <div
        role="treeitem"
        tabIndex={-1}
        {...common}
        aria-selected={isCurrent}
        aria-expanded={row.hasChildren ? row.isExpanded : undefined}
        data-testid={`tree-folder-${folder.folder_id}`}
      >
        <span
          aria-hidden="true"
          style={{
            width: 24,
            flexShrink: 0,
            display: "inline-flex",
            justifyContent: "center",
            visibility: row.hasChildren ? "visible" : "hidden",
          }}
          onClick={(event) => {
            event.stopPropagation();
            onToggleFolder(folder.folder_id, !row.isExpanded);
          }}
        >
          {row.isExpanded ? <ChevronDownIcon label="" /> : <ChevronRightIcon label="" />}
        </span>
        <span style={{ display: "inline-flex", flexShrink: 0 }}>
          {row.isExpanded ? <FolderOpenIcon label="" /> : <FolderClosedIcon label="" />}
        </span>
        <span title={folder.name} style={truncated}>
          {folder.name}
        </span>
      </div>
    );
  }

  const { requirement } = row;
  const label = requirementLabel(requirement);
  return (
    <div
      role="treeitem"
      tabIndex={-1}
      {...common}
      aria-selected={isCurrent}
      aria-checked={isChecked}
      data-testid={`tree-requirement-${requirement.requirement_id}`}
    >
      {/* In the place of a folder's chevron, so that names line up. */}
      <span style={{ width: 24, flexShrink: 0, display: "inline-flex", justifyContent: "center" }}>
        <input
          type="checkbox"
          tabIndex={-1}
          aria-hidden="true"
          style={{ margin: 0 }}
          checked={isChecked}
          onClick={(event) => event.stopPropagation()}
          onChange={() => onToggleCheck(requirement.requirement_id)}
        />
      </span>
      <span style={{ display: "inline-flex", flexShrink: 0 }}>
        <PageIcon label="" color={requirement.category === "HIGH_LEVEL" ? token("color.icon.brand") : token("color.icon.success")} />
      </span>
      <span title={label} style={truncated}>
        {label}
      </span>
    </div>
  );
}
