import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useFolder } from "../../api/folders.js";
import type { FolderItem } from "../../api/items.js";
import { useProjectId } from "../../state/AppState.js";
import { CoverageFigures } from "../Coverage/CoverageFigures.js";
import { setUncoveredFilter } from "../UncoveredFilter/uncoveredFilterStore.js";

export type FolderActions = {
  onEdit(folder: FolderItem): void;
  onMove(folder: FolderItem): void;
  onDelete(folder: FolderItem): void;
  onCreateRequirement(folder: FolderItem): void;
  onCreateFolder(folder: FolderItem): void;
};

export function FolderDetail({ folderId, ...actions }: FolderActions & { folderId: number }) {
  const folder = useFolder(folderId);
  if (folder.isLoading) return <Spinner label="Loading folder" />;
  if (!folder.data) {
    return (
      <SectionMessage appearance="error">
        There was a problem retrieving your folder. Please contact rmCloud support via the "Get help" button.
      </SectionMessage>
    );
  }
  return <FolderDetailView folder={folder.data} {...actions} />;
}

/** Spec section 2, Folder detail: the name and the folder's actions; then its subtree's coverage (issue 34). */
export function FolderDetailView({ folder, ...actions }: FolderActions & { folder: FolderItem }) {
  const projectId = useProjectId();
  return (
    <article aria-label={folder.name}>
      <Heading size="large">{folder.name}</Heading>
      <div style={{ display: "flex", flexWrap: "wrap", gap: token("space.100"), marginTop: token("space.200") }}>
        <Button onClick={() => actions.onEdit(folder)}>Edit</Button>
        <Button onClick={() => actions.onMove(folder)}>Move</Button>
        <Button appearance="danger" onClick={() => actions.onDelete(folder)}>
          Delete
        </Button>
        <Button onClick={() => actions.onCreateRequirement(folder)}>Create a requirement in this folder</Button>
        <Button onClick={() => actions.onCreateFolder(folder)}>Create a child folder</Button>
      </div>
      {projectId === undefined ? null : (
        <CoverageFigures
          scope={{ projectId, folderId: folder.folder_id }}
          onOpenUncovered={(uncovered) =>
            setUncoveredFilter({ projectId, uncovered, folder: { folderId: folder.folder_id, name: folder.name } })
          }
        />
      )}
    </article>
  );
}
