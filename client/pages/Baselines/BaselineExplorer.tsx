import Button from "@atlaskit/button/new";
import Heading from "@atlaskit/heading";
import { ModalTransition } from "@atlaskit/modal-dialog";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useState } from "react";
import { baselineIdLabel } from "../../../common/constants.js";
import { type Baseline, useBaseline, useBaselines, useCreateBaseline, useDeleteBaseline } from "../../api/baselines.js";
import { BaselineRequirementTable } from "../../components/BaselineRequirementTable/BaselineRequirementTable.js";
import { CreateBaselineDialog } from "../../components/BaselineForm/CreateBaselineDialog.js";
import { DeleteDialog } from "../../components/DeleteDialog/DeleteDialog.js";
import { UserName } from "../../components/RequirementDetail/UserName.js";
import { formatDate } from "../../format/date.js";
import { useAppActions, useNav } from "../../state/AppState.js";
import { RetrieveError } from "./RetrieveError.js";

export const NO_DESCRIPTION_TEXT = "No description";

/** Baseline Explorer: Create baseline, the list (newest first) on the left, the open baseline on the right. */
export function BaselineExplorer({ projectId }: { projectId: number }) {
  const nav = useNav();
  const { navigate } = useAppActions();
  // The delete dialog keeps the baseline it was opened for: back or forward may show another behind it.
  const [dialog, setDialog] = useState<"create" | { deleting: Baseline } | undefined>();
  const baselines = useBaselines(projectId);
  const createBaseline = useCreateBaseline(projectId);
  const deleteBaseline = useDeleteBaseline();
  const currentId = nav?.tab === "baselines" ? nav.baselineId : undefined;
  const show = (baselineId?: number) =>
    navigate(baselineId === undefined ? { projectId, tab: "baselines" } : { projectId, tab: "baselines", baselineId });

  return (
    <div>
      <div style={{ marginBottom: token("space.200") }}>
        <Button appearance="primary" onClick={() => setDialog("create")}>
          Create baseline
        </Button>
      </div>
      {baselines.isLoading ? <Spinner size="large" label="Loading baselines" /> : null}
      {baselines.error ? <RetrieveError error={baselines.error} /> : null}
      <div style={{ display: "flex", gap: token("space.400"), alignItems: "flex-start" }}>
        <nav aria-label="Baselines" style={{ flex: "0 0 30%", minWidth: 240, maxWidth: 400 }}>
          {baselines.items?.length === 0 ? <p>No baselines yet</p> : null}
          <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {(baselines.items ?? []).map((baseline) => (
              <li key={baseline.baseline_id}>
                <button
                  type="button"
                  aria-current={baseline.baseline_id === currentId ? "true" : undefined}
                  onClick={() => show(baseline.baseline_id)}
                  style={{
                    display: "block",
                    width: "100%",
                    textAlign: "left",
                    padding: token("space.100"),
                    border: "none",
                    borderRadius: 4,
                    cursor: "pointer",
                    background: baseline.baseline_id === currentId ? token("color.background.selected") : "transparent",
                    color: token("color.text"),
                  }}
                >
                  <strong>{baseline.name}</strong>
                  <br />
                  <small>
                    {baselineIdLabel(baseline.baseline_id)} · {formatDate(baseline.created_at)}
                  </small>
                </button>
              </li>
            ))}
          </ul>
          {baselines.hasMore ? (
            <Button appearance="subtle" isLoading={baselines.isLoadingMore} onClick={baselines.loadMore}>
              Show older baselines
            </Button>
          ) : null}
        </nav>
        <div style={{ flex: 1, minWidth: 0 }}>
          {currentId !== undefined ? (
            <BaselineDetail projectId={projectId} baselineId={currentId} onDelete={(baseline) => setDialog({ deleting: baseline })} />
          ) : null}
        </div>
      </div>
      <ModalTransition>
        {dialog === "create" ? (
          <CreateBaselineDialog
            projectId={projectId}
            onClose={() => setDialog(undefined)}
            onSubmit={async (input) => {
              const created = await createBaseline.mutateAsync(input);
              show(created.baseline_id);
            }}
          />
        ) : null}
        {typeof dialog === "object" ? (
          <DeleteDialog
            title="Delete baseline"
            onClose={() => setDialog(undefined)}
            onConfirm={async () => {
              await deleteBaseline.mutateAsync(dialog.deleting.baseline_id);
              // Spec section 4: after a baseline delete the current baseline is cleared.
              show();
            }}
          >
            Are you sure you want to delete the baseline {baselineIdLabel(dialog.deleting.baseline_id)} {dialog.deleting.name}? The
            requirements themselves are not changed.
          </DeleteDialog>
        ) : null}
      </ModalTransition>
    </div>
  );
}

function BaselineDetail({
  projectId,
  baselineId,
  onDelete,
}: {
  projectId: number;
  baselineId: number;
  onDelete(baseline: Baseline): void;
}) {
  const baseline = useBaseline(projectId, baselineId);
  if (baseline.isLoading) return <Spinner size="medium" label="Loading baseline" />;
  if (baseline.isError) return <RetrieveError error={baseline.error} />;
  if (!baseline.data) return null;
  return <BaselineSummary projectId={projectId} baseline={baseline.data} onDelete={onDelete} />;
}

function BaselineSummary({ projectId, baseline, onDelete }: { projectId: number; baseline: Baseline; onDelete(baseline: Baseline): void }) {
  const th = { textAlign: "left", padding: token("space.050"), width: 140 } as const;
  const td = { padding: token("space.050") } as const;
  return (
    <section aria-label={`Baseline ${baseline.name}`}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: token("space.100") }}>
        <Heading size="medium" as="h2">
          {baseline.name}
        </Heading>
        <Button appearance="danger" onClick={() => onDelete(baseline)}>
          Delete
        </Button>
      </div>
      <table aria-label="Baseline details" style={{ margin: `${token("space.200")} 0`, borderCollapse: "collapse" }}>
        <tbody>
          <tr>
            <th style={th}>ID</th>
            <td style={td}>{baselineIdLabel(baseline.baseline_id)}</td>
          </tr>
          <tr>
            <th style={th}>Created</th>
            <td style={td}>{formatDate(baseline.created_at)}</td>
          </tr>
          <tr>
            <th style={th}>Reporter</th>
            <td style={td}>
              <UserName accountId={baseline.created_by.account_id} />
            </td>
          </tr>
          <tr>
            <th style={th}>Description</th>
            <td style={{ ...td, whiteSpace: "pre-wrap" }}>{baseline.description || NO_DESCRIPTION_TEXT}</td>
          </tr>
        </tbody>
      </table>
      <BaselineRequirementTable key={baseline.baseline_id} projectId={projectId} baseline={baseline} />
    </section>
  );
}
