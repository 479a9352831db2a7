import { Label } from "@atlaskit/form";
import TextArea from "@atlaskit/textarea";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { type ReactNode, useId, useState } from "react";
import type { BaselineScope } from "../../../common/schemas/baseline.js";
import { useSubmitting } from "../DeleteDialog/useSubmitting.js";
import { FormDialog } from "../FormDialog/FormDialog.js";
import { FolderPicker } from "../MoveDialog/MoveDialog.js";
import { RequirementPicker } from "../RequirementPicker/RequirementPicker.js";
import { baselineRequest, type NewBaseline } from "./baselineRequest.js";

const SCOPES: ReadonlyArray<{ scope: BaselineScope; label: string }> = [
  { scope: "all", label: "All requirements" },
  { scope: "folder", label: "A folder and everything in it" },
  { scope: "individual", label: "Individual requirements" },
];

/** Create baseline (spec section 5: name required; scope all, folder or individual). */
export function CreateBaselineDialog({
  projectId,
  onSubmit,
  onClose,
}: {
  projectId: number;
  /** Saves; rejects (after its own error toast) to keep the dialog open. */
  onSubmit(input: NewBaseline): Promise<unknown>;
  onClose(): void;
}) {
  const ids = { name: useId(), description: useId(), requirements: useId(), scope: useId() };
  const { isSubmitting, submit } = useSubmitting(onClose);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [scope, setScope] = useState<BaselineScope>("all");
  const [folderId, setFolderId] = useState<number | null>(null);
  const [chosen, setChosen] = useState<readonly number[]>([]);

  const isComplete =
    name.trim() !== "" &&
    (scope !== "folder" || folderId !== null) &&
    (scope !== "individual" || chosen.length > 0);
  const save = () => {
    if (!isComplete) return;
    void submit(() =>
      onSubmit(
        baselineRequest({ name, description, scope, folderId, requirementIds: [...chosen] }),
      ),
    );
  };

  return (
    <FormDialog
      title="Create baseline"
      width="medium"
      shouldScrollInViewport
      isSubmitting={isSubmitting}
      isComplete={isComplete}
      onSubmit={save}
      onClose={onClose}
    >
      <Row>
        <Label htmlFor={ids.name}>
          Name<span aria-hidden="true"> *</span>
        </Label>
        <Textfield
          id={ids.name}
          autoFocus
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          isDisabled={isSubmitting}
        />
      </Row>
      <Row>
        <Label htmlFor={ids.description}>Description</Label>
        <TextArea
          id={ids.description}
          minimumRows={3}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          isDisabled={isSubmitting}
        />
      </Row>
      <Row>
        <div role="radiogroup" aria-label="Requirements in the baseline" style={{ display: "grid", gap: token("space.050") }}>
          {SCOPES.map((entry) => (
            <label key={entry.scope} style={{ display: "inline-flex", alignItems: "center", gap: token("space.050") }}>
              <input
                type="radio"
                name={ids.scope}
                checked={scope === entry.scope}
                disabled={isSubmitting}
                onChange={() => setScope(entry.scope)}
              />
              {entry.label}
            </label>
          ))}
        </div>
      </Row>
      {scope === "folder" ? (
        <Row>
          <FolderPicker
            projectId={projectId}
            label="Folder"
            restrictions={{ currentFolderId: undefined }}
            value={folderId ?? undefined}
            onChange={setFolderId}
          />
        </Row>
      ) : null}
      {scope === "individual" ? (
        <Row>
          <Label htmlFor={ids.requirements}>Requirements</Label>
          <RequirementPicker
            inputId={ids.requirements}
            scope={{ projectIds: [projectId] }}
            value={chosen}
            onChange={setChosen}
            isDisabled={isSubmitting}
            placeholder="Type an ID or words to find requirements"
          />
        </Row>
      ) : null}
    </FormDialog>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <div style={{ marginBottom: token("space.150") }}>{children}</div>;
}
