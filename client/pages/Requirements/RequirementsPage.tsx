import Button from "@atlaskit/button/new";
import { ModalTransition } from "@atlaskit/modal-dialog";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import Tooltip from "@atlaskit/tooltip";
import { useEffect, useState } from "react";
import { PROJECT_ACCESS_MESSAGES } from "../../../common/errors.js";
import { useProjectAccess } from "../../api/projectAccess.js";
import { useRequirement } from "../../api/requirements.js";
import { FolderDetail } from "../../components/FolderDetail/FolderDetail.js";
import { NotFound } from "../../components/NotFound/NotFound.js";
import { commonParentFolder } from "../../components/MoveDialog/moveTargets.js";
import { RequirementDetail } from "../../components/RequirementDetail/RequirementDetail.js";
import type { TreeRow } from "../../components/RequirementTree/flattenTree.js";
import { RequirementTree } from "../../components/RequirementTree/RequirementTree.js";
import { useTreeRows } from "../../components/RequirementTree/useTreeRows.js";
import { useAppState } from "../../state/AppState.js";
import { RequirementsDialogs } from "./RequirementsDialogs.js";
import type { RequirementsDialog } from "./requirementsDialog.js";

export const EMPTY_STATE_TEXT = 'Create your first requirement by clicking the "New requirement" button above';

/** /requirements: the folder and requirement tree on the left, the open item on the right. */
export function RequirementsPage() {
  const { projectId } = useAppState();
  // The layout shows this screen only once a project is chosen.
  if (projectId === undefined) return null;
  return <RequirementsScreen key={projectId} projectId={projectId} />;
}

/** A button that changes the project: disabled, with the reason as its tooltip, where the user may not edit. */
function ChangeButton({ readOnly, ...props }: Parameters<typeof Button>[0] & { readOnly: boolean }) {
  if (!readOnly) return <Button {...props} />;
  return (
    <Tooltip content={PROJECT_ACCESS_MESSAGES.edit}>
      <Button {...props} isDisabled />
    </Tooltip>
  );
}

function RequirementsScreen({ projectId }: { projectId: number }) {
  const { nav, navigate, redirect, openFolders, setFolderOpen, selectedRequirements, setSelectedRequirements } =
    useAppState();
  const [dialog, setDialog] = useState<RequirementsDialog | undefined>();
  const access = useProjectAccess(projectId).data;
  const readOnly = access?.edit === false;
  const tree = useTreeRows(projectId, openFolders);
  const current = { requirementId: nav?.requirementId, folderId: nav?.folderId };
  // A deep link or an older history entry may name a requirement of another project: it is shown in
  // its own project, whose folders, statuses and custom fields its edit and move dialogs offer.
  const shownProject = useRequirement(current.requirementId).data?.project;
  useEffect(() => {
    if (current.requirementId !== undefined && shownProject !== undefined && shownProject !== projectId) {
      redirect({ projectId: shownProject, tab: "requirements", requirementId: current.requirementId });
    }
  }, [current.requirementId, shownProject, projectId, redirect]);

  const openRow = (row: TreeRow) => {
    if (row.kind === "requirement") navigate({ projectId, tab: "requirements", requirementId: row.requirement.requirement_id });
    if (row.kind === "folder") navigate({ projectId, tab: "requirements", folderId: row.folder.folder_id });
  };
  const toggleChecked = (requirementId: number) => {
    const next = new Set(selectedRequirements);
    if (next.has(requirementId)) next.delete(requirementId);
    else next.add(requirementId);
    setSelectedRequirements(next);
  };
  const moveChecked = () => {
    const requirementIds = [...selectedRequirements];
    const parents = requirementIds.map(
      (id) => tree.rows.find((row) => row.kind === "requirement" && row.requirement.requirement_id === id),
    );
    // Checked requirements inside folders closed since then have no row: their folder is unknown.
    const currentFolderId = parents.every((row) => row?.kind === "requirement")
      ? commonParentFolder(parents.map((row) => (row?.kind === "requirement" ? row.requirement.parent_folder_id : null)))
      : undefined;
    setDialog({ kind: "moveRequirements", requirementIds, currentFolderId });
  };

  // A project the user may not browse in Jira (a deep link to it) is not there for them.
  if (access?.browse === false) return <NotFound thing="project" />;

  return (
    <div>
      <div style={{ display: "flex", flexWrap: "wrap", gap: token("space.100"), marginBottom: token("space.200") }}>
        <ChangeButton readOnly={readOnly} appearance="primary" onClick={() => setDialog({ kind: "createRequirement", parentFolderId: null })}>
          New requirement
        </ChangeButton>
        <ChangeButton readOnly={readOnly} onClick={() => setDialog({ kind: "createFolder", parentFolderId: null })}>
          New folder
        </ChangeButton>
        <ChangeButton readOnly={readOnly} onClick={() => setDialog({ kind: "import" })}>
          Import requirements
        </ChangeButton>
        <Button onClick={() => setDialog({ kind: "export" })}>Export requirements</Button>
      </div>
      {tree.isLoading ? <Spinner size="large" label="Loading requirements" /> : null}
      {tree.isError ? (
        <SectionMessage appearance="error">There was an error loading your requirements</SectionMessage>
      ) : null}
      {tree.isEmpty ? <p>{EMPTY_STATE_TEXT}</p> : null}
      {tree.rows.length > 0 ? (
        <div style={{ display: "flex", gap: token("space.400"), alignItems: "flex-start", width: "100%" }}>
          <div style={{ flex: "0 0 40%", minWidth: 320, maxWidth: 600 }}>
            <div
              style={{ display: "flex", alignItems: "center", gap: token("space.100"), marginBottom: token("space.100") }}
            >
              <span>Selected: {selectedRequirements.size}</span>
              <ChangeButton readOnly={readOnly} spacing="compact" isDisabled={selectedRequirements.size === 0} onClick={moveChecked}>
                Move
              </ChangeButton>
              <ChangeButton
                readOnly={readOnly}
                spacing="compact"
                appearance="danger"
                isDisabled={selectedRequirements.size === 0}
                onClick={() => setDialog({ kind: "deleteRequirements", requirementIds: [...selectedRequirements] })}
              >
                Delete
              </ChangeButton>
            </div>
            <RequirementTree
              rows={tree.rows}
              current={current}
              checked={selectedRequirements}
              onToggleFolder={setFolderOpen}
              onToggleCheck={toggleChecked}
              onOpen={openRow}
            />
          </div>
          <div style={{ flex: 1, minWidth: 0 }}>
            {current.requirementId !== undefined ? (
              <RequirementDetail
                requirementId={current.requirementId}
                onEdit={(detail) => setDialog({ kind: "editRequirement", detail })}
                onMove={(detail) =>
                  setDialog({
                    kind: "moveRequirements",
                    requirementIds: [detail.requirement_id],
                    currentFolderId: detail.parent_folder_id,
                  })
                }
                onDelete={(detail) => setDialog({ kind: "deleteRequirements", requirementIds: [detail.requirement_id] })}
                onOpenRequirement={(linked) =>
                  navigate({ projectId: linked.project, tab: "requirements", requirementId: linked.requirement_id })
                }
              />
            ) : null}
            {current.folderId !== undefined ? (
              <FolderDetail
                folderId={current.folderId}
                onEdit={(folder) => setDialog({ kind: "editFolder", folder })}
                onMove={(folder) => setDialog({ kind: "moveFolder", folder })}
                onDelete={(folder) => setDialog({ kind: "deleteFolder", folder })}
                onCreateRequirement={(folder) => setDialog({ kind: "createRequirement", parentFolderId: folder.folder_id })}
                onCreateFolder={(folder) => setDialog({ kind: "createFolder", parentFolderId: folder.folder_id })}
              />
            ) : null}
          </div>
        </div>
      ) : null}
      <ModalTransition>
        {dialog ? <RequirementsDialogs projectId={projectId} dialog={dialog} onClose={() => setDialog(undefined)} /> : null}
      </ModalTransition>
    </div>
  );
}
