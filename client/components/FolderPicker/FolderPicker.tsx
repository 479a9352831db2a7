import Button, { IconButton } from "@atlaskit/button/new";
import ChevronDownIcon from "@atlaskit/icon/core/chevron-down";
import ChevronRightIcon from "@atlaskit/icon/core/chevron-right";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { type ReactNode, useId, useState } from "react";
import { useChildFolders, useFolderAncestors, useTopLevelFolders } from "../../api/folders.js";
import type { FolderItem } from "../../api/items.js";
import { canMoveTo, type MoveRestrictions, type MoveTarget } from "../MoveDialog/moveTargets.js";
import { truncated } from "../TruncatedName/truncated.js";

/** The project's folder tree as radio buttons, each folder's children fetched when it is opened (Move, a baseline's folder scope, Import). */
export function FolderPicker({
  projectId,
  label,
  topLevelLabel,
  restrictions,
  value,
  onChange,
  isDisabled = false,
}: {
  projectId: number;
  label: string;
  /** Offers the top level (null) first under this name. */
  topLevelLabel?: string;
  restrictions: MoveRestrictions;
  value: MoveTarget | undefined;
  onChange: PickerProps["onChange"];
  isDisabled?: boolean;
}) {
  const topLevel = useTopLevelFolders(projectId);
  const name = useId();
  // A folder chosen before the picker showed (the folder open on the screen) is shown: the folders above it start open.
  const [initialValue] = useState(value);
  const revealed = new Set(useFolderAncestors(initialValue).data);
  const picker: PickerProps = { projectId, name, restrictions, value, onChange, isDisabled, revealed };
  return (
    <div role="radiogroup" aria-label={label} style={{ maxHeight: 360, overflow: "auto" }}>
      {topLevelLabel ? <TargetOption {...picker} folderId={null} label={topLevelLabel} ancestors={[]} /> : null}
      {topLevel.isLoading ? <Spinner size="small" label="Loading folders" /> : null}
      {topLevel.items ? <FolderOptions {...picker} folders={topLevel.items} ancestors={[]} /> : null}
      <MoreFolders list={topLevel} ancestors={[]} />
    </div>
  );
}

type PickerProps = {
  projectId: number;
  name: string;
  restrictions: MoveRestrictions;
  value: MoveTarget | undefined;
  /** `ancestors` are the chosen folder's parents from the top level down, so a caller can open the tree down to it. */
  onChange(target: MoveTarget, ancestors: readonly number[]): void;
  isDisabled: boolean;
  /** Folders open until the person closes them. */
  revealed: ReadonlySet<number>;
};

/** `ancestors`: the folders above these, outermost first; their count is the indentation. */
type Placement = { ancestors: readonly number[] };

function FolderOptions({ folders, ancestors, ...picker }: PickerProps & Placement & { folders: readonly FolderItem[] }) {
  return folders.map((folder) => <FolderOption key={folder.folder_id} {...picker} folder={folder} ancestors={ancestors} />);
}

/** A folder of the picker; its child folders are fetched when it is opened. */
function FolderOption({ folder, ancestors, ...picker }: PickerProps & Placement & { folder: FolderItem }) {
  const [chosenOpen, setOpen] = useState<boolean | undefined>(undefined);
  const isOpen = chosenOpen ?? picker.revealed.has(folder.folder_id);
  // The folder being moved is never opened: none of its descendants can be a target.
  const canOpen = folder.has_descendant_folders && folder.folder_id !== picker.restrictions.movingFolderId;
  const children = useChildFolders(picker.projectId, folder.folder_id, isOpen && canOpen);
  return (
    <>
      <TargetOption
        {...picker}
        folderId={folder.folder_id}
        label={folder.name}
        ancestors={ancestors}
        toggle={
          canOpen ? (
            <IconButton
              appearance="subtle"
              spacing="compact"
              icon={isOpen ? ChevronDownIcon : ChevronRightIcon}
              label={`${isOpen ? "Collapse" : "Expand"} ${folder.name}`}
              onClick={() => setOpen(!isOpen)}
            />
          ) : undefined
        }
      />
      {isOpen && children.isLoading ? <Spinner size="small" label="Loading folders" /> : null}
      {isOpen && children.items ? (
        <>
          <FolderOptions {...picker} folders={children.items} ancestors={[...ancestors, folder.folder_id]} />
          <MoreFolders list={children} ancestors={[...ancestors, folder.folder_id]} />
        </>
      ) : null}
    </>
  );
}

/** A level holds more folders than one page (1,000): the next page on request. */
function MoreFolders({ list, ancestors }: { list: ReturnType<typeof useTopLevelFolders> } & Placement) {
  if (!list.hasMore) return null;
  return (
    <div style={{ paddingLeft: ancestors.length * 20 + 24 }}>
      <Button appearance="subtle" spacing="compact" isLoading={list.isLoadingMore} onClick={list.loadMore}>
        More folders
      </Button>
    </div>
  );
}

function TargetOption({
  name,
  restrictions,
  value,
  onChange,
  isDisabled,
  folderId,
  label,
  ancestors,
  toggle,
}: PickerProps & Placement & { folderId: MoveTarget; label: string; toggle?: ReactNode }) {
  const allowed = canMoveTo(folderId, restrictions);
  return (
    <div
      style={{
        display: "flex",
        alignItems: "center",
        gap: token("space.050"),
        minHeight: 32,
        paddingLeft: ancestors.length * 20,
        color: allowed ? undefined : token("color.text.disabled"),
      }}
    >
      <span style={{ width: 24, flexShrink: 0, display: "inline-flex" }}>{toggle}</span>
      <label title={label} style={{ display: "inline-flex", alignItems: "center", gap: token("space.050"), minWidth: 0 }}>
        <input
          type="radio"
          name={name}
          checked={value === folderId}
          disabled={!allowed || isDisabled}
          onChange={() => onChange(folderId, ancestors)}
        />
        <span style={truncated}>{label}</span>
      </label>
    </div>
  );
}
