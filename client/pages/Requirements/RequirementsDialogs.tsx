import { useCreateFolder, useDeleteFolder, useMoveFolder, useUpdateFolder } from "../../api/folders.js";
import {
  requirementsNoun,
  useCreateRequirement,
  useDeleteRequirements,
  useMoveRequirements,
  useUpdateRequirement,
} from "../../api/requirements.js";
import { DeleteDialog } from "../../components/DeleteDialog/DeleteDialog.js";
import { FolderFormDialog } from "../../components/FolderForm/FolderFormDialog.js";
import { MoveDialog } from "../../components/MoveDialog/MoveDialog.js";
import { RequirementFormDialog } from "../../components/RequirementForm/RequirementFormDialog.js";
import { useAppActions, useSelectedRequirements } from "../../state/AppState.js";
import { ExportDialog } from "./ExportDialog.js";
import { ImportDialog } from "./ImportDialog.js";
import type { RequirementsDialog } from "./requirementsDialog.js";

/** Every modal of the requirements screen, wired to its API call, its toasts and what follows. */
export function RequirementsDialogs({ projectId, dialog, onClose }: { projectId: number; dialog: RequirementsDialog; onClose(): void }) {
  const selectedRequirements = useSelectedRequirements();
  const { navigate, setFolderOpen, setSelectedRequirements } = useAppActions();
  const createRequirement = useCreateRequirement(projectId);
  const updateRequirement = useUpdateRequirement(projectId);
  const deleteRequirements = useDeleteRequirements(projectId);
  const moveRequirements = useMoveRequirements(projectId);
  const createFolder = useCreateFolder(projectId);
  const updateFolder = useUpdateFolder(projectId);
  const moveFolder = useMoveFolder(projectId);
  const deleteFolder = useDeleteFolder(projectId);
  const showRequirements = (extra: { requirementId?: number; folderId?: number } = {}) =>
    navigate({ projectId, tab: "requirements", ...extra });

  switch (dialog.kind) {
    case "createRequirement":
      return (
        <RequirementFormDialog
          projectId={projectId}
          title="Create requirement"
          onClose={onClose}
          onSubmit={async (input, linked) => {
            const created = await createRequirement.mutateAsync({
              ...input,
              parent_folder_id: dialog.parentFolderId,
              requirements: linked,
            });
            if (dialog.parentFolderId !== null) setFolderOpen(dialog.parentFolderId, true);
            showRequirements({ requirementId: created.requirement_id });
          }}
        />
      );
    case "editRequirement": {
      const { detail } = dialog;
      return (
        <RequirementFormDialog
          projectId={detail.project}
          title="Edit requirement"
          existing={detail}
          onClose={onClose}
          onSubmit={(input, linked) =>
            updateRequirement.mutateAsync({
              ...input,
              requirementId: detail.requirement_id,
              linked_requirements: linked,
              attachments: detail.attachments,
              // The revision the edit started from: a stale save answers 409.
              revision: detail.revision,
            })
          }
        />
      );
    }
    case "moveRequirements": {
      const noun = requirementsNoun(dialog.requirementIds.length);
      return (
        <MoveDialog
          projectId={projectId}
          title={`Move ${noun.toLowerCase()}`}
          currentFolderId={dialog.currentFolderId}
          onClose={onClose}
          onConfirm={async (target) => {
            await moveRequirements.mutateAsync({ parent_folder_id: target, requirements: dialog.requirementIds });
            if (target !== null) setFolderOpen(target, true);
            setSelectedRequirements([...selectedRequirements].filter((id) => !dialog.requirementIds.includes(id)));
          }}
        />
      );
    }
    case "deleteRequirements": {
      const count = dialog.requirementIds.length;
      const noun = requirementsNoun(count);
      return (
        <DeleteDialog
          title={`Delete ${noun.toLowerCase()}`}
          onClose={onClose}
          onConfirm={async () => {
            await deleteRequirements.mutateAsync(dialog.requirementIds);
            // Spec section 4: after a delete the current item and the selection are cleared.
            setSelectedRequirements([]);
            showRequirements();
          }}
        >
          {count === 1
            ? "Are you sure you want to delete this requirement?"
            : `Are you sure you want to delete these ${count} requirements?`}
        </DeleteDialog>
      );
    }
    case "createFolder":
      return (
        <FolderFormDialog
          title="Create folder"
          onClose={onClose}
          onSubmit={async (name) => {
            const created = await createFolder.mutateAsync({ name, parent_folder_id: dialog.parentFolderId });
            if (dialog.parentFolderId !== null) setFolderOpen(dialog.parentFolderId, true);
            showRequirements({ folderId: created.folder_id });
          }}
        />
      );
    case "editFolder": {
      const { folder } = dialog;
      return (
        <FolderFormDialog
          title="Edit folder"
          initialName={folder.name}
          onClose={onClose}
          onSubmit={(name) =>
            updateFolder.mutateAsync({
              folderId: folder.folder_id,
              name,
              description: folder.description,
              issues: folder.issues,
              parent_folder_id: folder.parent_folder_id,
            })
          }
        />
      );
    }
    case "moveFolder": {
      const { folder } = dialog;
      return (
        <MoveDialog
          projectId={projectId}
          title="Move folder"
          currentFolderId={folder.parent_folder_id}
          movingFolderId={folder.folder_id}
          onClose={onClose}
          onConfirm={async (target) => {
            await moveFolder.mutateAsync({
              folderId: folder.folder_id,
              name: folder.name,
              description: folder.description,
              issues: folder.issues,
              parent_folder_id: target,
            });
            if (target !== null) setFolderOpen(target, true);
          }}
        />
      );
    }
    case "deleteFolder": {
      const { folder } = dialog;
      return (
        <DeleteDialog
          title="Delete folder"
          onClose={onClose}
          onConfirm={async () => {
            await deleteFolder.mutateAsync(folder.folder_id);
            setFolderOpen(folder.folder_id, false);
            setSelectedRequirements([]);
            showRequirements();
          }}
        >
          Are you sure you want to delete the folder "{folder.name}" and everything in it?
        </DeleteDialog>
      );
    }
    case "import":
      return <ImportDialog projectId={projectId} onClose={onClose} />;
    case "export":
      return <ExportDialog projectId={projectId} onClose={onClose} />;
  }
}
