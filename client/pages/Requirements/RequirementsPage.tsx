import Button from "@atlaskit/button/new";
import ModalTransition from "@atlaskit/modal-dialog/modal-transition";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { lazy, Suspense, useEffect, useState } from "react";
import { PROJECT_ACCESS_MESSAGES } from "../../../common/errors.js";
import { useProjectAccess } from "../../api/projectAccess.js";
import type { RequirementSearchHit } from "../../api/requirementSearch.js";
import { useRequirement } from "../../api/requirements.js";
import { lazyNamed } from "../../components/Lazy/lazyNamed.js";
import { commonParentFolder } from "../../components/MoveDialog/moveTargets.js";
import { RequirementSearch } from "../../components/RequirementSearch/RequirementSearch.js";
import type { TreeRow } from "../../components/RequirementTree/flattenTree.js";
import { RequirementTree } from "../../components/RequirementTree/RequirementTree.js";
import { useRevealInTree } from "../../components/RequirementTree/useRevealInTree.js";
import { useTreeRows } from "../../components/RequirementTree/useTreeRows.js";
import { UncoveredFilterBar } from "../../components/UncoveredFilter/UncoveredFilter.js";
import { useUncoveredFilter } from "../../components/UncoveredFilter/uncoveredFilterStore.js";
import { useUncoveredRows } from "../../components/UncoveredFilter/useUncoveredRows.js";
import { GLOBAL_PROJECT_ID } from "../../api/projects.js";
import { useNarrowFrame } from "../../hooks/useNarrowFrame.js";
import { useAppActions, useNav, useOpenFolders, useProjectId, useSelectedRequirements } from "../../state/AppState.js";
import type { RequirementsDialog } from "./requirementsDialog.js";

// The tree is the first screen: the open item's detail and the dialogs load when first shown (issue 39).
const RequirementDetail = lazyNamed(() => import("../../components/RequirementDetail/RequirementDetail.js"), "RequirementDetail");
const FolderDetail = lazyNamed(() => import("../../components/FolderDetail/FolderDetail.js"), "FolderDetail");
const RequirementsDialogs = lazyNamed(() => import("./RequirementsDialogs.js"), "RequirementsDialogs");
const SectionMessage = lazy(() => import("@atlaskit/section-message"));
// Only a read-only project's buttons carry a tooltip: the first screen of an editable one does without it.
const Tooltip = lazy(() => import("@atlaskit/tooltip"));
const NotFound = lazyNamed(() => import("../../components/NotFound/NotFound.js"), "NotFound");
const SuspectRequirementList = lazyNamed(() => import("../../components/SuspectLinks/SuspectRequirementList.js"), "SuspectRequirementList");
const loading = <Spinner size="large" label="Loading" />;

export const EMPTY_STATE_TEXT = 'Create your first requirement by clicking the "New requirement" button above';

/** /requirements: the folder and requirement tree on the left, the open item on the right. */
export function RequirementsPage() {
  const projectId = useProjectId();
  // The layout shows this screen only once a project is chosen.
  if (projectId === undefined) return null;
  return <RequirementsScreen key={projectId} projectId={projectId} />;
}

/** A button that changes the project: disabled, with the reason as its tooltip, where the user may not edit. */
function ChangeButton({ readOnly, ...props }: Parameters<typeof Button>[0] & { readOnly: boolean }) {
  if (!readOnly) return <Button {...props} />;
  const disabled = <Button {...props} isDisabled />;
  return (
    <Suspense fallback={disabled}>
      <Tooltip content={PROJECT_ACCESS_MESSAGES.edit}>{disabled}</Tooltip>
    </Suspense>
  );
}

function RequirementsScreen({ projectId }: { projectId: number }) {
  const nav = useNav();
  const openFolders = useOpenFolders();
  const selectedRequirements = useSelectedRequirements();
  const { navigate, redirect, setFolderOpen, setSelectedRequirements } = useAppActions();
  const [dialog, setDialog] = useState<RequirementsDialog | undefined>();
  // Issue 34: the tree filtered to requirements with suspect links.
  const [suspectOnly, setSuspectOnly] = useState(false);
  const access = useProjectAccess(projectId).data;
  const readOnly = access?.edit === false;
  const tree = useTreeRows(projectId, openFolders);
  const uncoveredFilter = useUncoveredFilter(projectId);
  const uncovered = useUncoveredRows(projectId, uncoveredFilter);
  const shown = uncoveredFilter ? uncovered : tree;
  const narrow = useNarrowFrame();
  const current = { requirementId: nav?.requirementId, folderId: nav?.folderId };
  useRevealInTree(projectId, current, tree.rows, setFolderOpen, tree.loadWindows);
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
  // Global Requirements searches the whole site (the requirements it links across projects): a hit of
  // another project opens there. The tree opens the folders above it (useRevealInTree).
  const openFound = (found: RequirementSearchHit) =>
    navigate({ projectId: found.project, tab: "requirements", requirementId: found.requirement_id });
  const toggleChecked = (requirementId: number) => {
    const next = new Set(selectedRequirements);
    if (next.has(requirementId)) next.delete(requirementId);
    else next.add(requirementId);
    setSelectedRequirements(next);
  };
  const moveChecked = () => {
    const requirementIds = [...selectedRequirements];
    const parents = requirementIds.map((id) =>
      shown.rows.find((row) => row.kind === "requirement" && row.requirement.requirement_id === id),
    );
    // Checked requirements inside folders closed since then have no row: their folder is unknown.
    const currentFolderId = parents.every((row) => row?.kind === "requirement")
      ? commonParentFolder(parents.map((row) => (row?.kind === "requirement" ? row.requirement.parent_folder_id : null)))
      : undefined;
    setDialog({ kind: "moveRequirements", requirementIds, currentFolderId });
  };

  // A project the user may not browse in Jira (a deep link to it) is not there for them.
  if (access?.browse === false) {
    return (
      <Suspense fallback={loading}>
        <NotFound thing="project" />
      </Suspense>
    );
  }

  return (
    <div>
      <div style={{ display: "flex", flexWrap: "wrap", gap: token("space.100"), marginBottom: token("space.200") }}>
        <ChangeButton
          readOnly={readOnly}
          appearance="primary"
          onClick={() => setDialog({ kind: "createRequirement", parentFolderId: null })}
        >
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
      {tree.isEmpty ? null : (
        <RequirementSearch scope={projectId === GLOBAL_PROJECT_ID ? {} : { projectIds: [projectId] }} onOpen={openFound} />
      )}
      {tree.isLoading ? <Spinner size="large" label="Loading requirements" /> : null}
      {tree.isError ? (
        <Suspense fallback={<p role="alert">There was an error loading your requirements</p>}>
          <SectionMessage appearance="error">There was an error loading your requirements</SectionMessage>
        </Suspense>
      ) : null}
      {tree.isEmpty ? <p>{EMPTY_STATE_TEXT}</p> : null}
      {tree.rows.length > 0 ? (
        <div
          style={{
            display: "flex",
            flexDirection: narrow ? "column" : "row",
            gap: token("space.400"),
            alignItems: narrow ? "stretch" : "flex-start",
            width: "100%",
          }}
        >
          <div style={narrow ? { minWidth: 0 } : { flex: "0 0 40%", minWidth: 320, maxWidth: 600 }}>
            <div style={{ display: "flex", alignItems: "center", gap: token("space.100"), marginBottom: token("space.100") }}>
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
            <label style={{ display: "flex", alignItems: "center", gap: token("space.050"), marginBottom: token("space.100") }}>
              <input type="checkbox" checked={suspectOnly} onChange={(event) => setSuspectOnly(event.currentTarget.checked)} />
              Suspect links only
            </label>
            {suspectOnly ? (
              <Suspense fallback={loading}>
                <SuspectRequirementList
                  projectId={projectId}
                  currentRequirementId={current.requirementId}
                  onOpen={(requirement) => navigate({ projectId, tab: "requirements", requirementId: requirement.requirement_id })}
                />
              </Suspense>
            ) : (
              <>
                <UncoveredFilterBar projectId={projectId} filter={uncoveredFilter} total={uncovered.total} />
                {uncoveredFilter && uncovered.isError ? <p role="alert">There was an error loading your requirements</p> : null}
                <RequirementTree
                  rows={shown.rows}
                  current={current}
                  checked={selectedRequirements}
                  onToggleFolder={setFolderOpen}
                  onToggleCheck={toggleChecked}
                  onOpen={openRow}
                  onRowsInView={shown.showRows}
                />
              </>
            )}
          </div>
          <div style={{ flex: 1, minWidth: 0 }}>
            <Suspense fallback={loading}>
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
            </Suspense>
          </div>
        </div>
      ) : null}
      <Suspense fallback={loading}>
        <ModalTransition>
          {dialog ? <RequirementsDialogs projectId={projectId} dialog={dialog} onClose={() => setDialog(undefined)} /> : null}
        </ModalTransition>
      </Suspense>
    </div>
  );
}
