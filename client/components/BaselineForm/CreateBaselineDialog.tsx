import { Label } from "@atlaskit/form";
import TextArea from "@atlaskit/textarea";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import type { BaselineScope } from "../../../common/schemas/baseline.js";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { FormDialog } from "../FormDialog/FormDialog.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";
import { RequirementPicker } from "../RequirementPicker/RequirementPicker.js";
import { type BaselineFormValues, baselineFormSchema, baselineRequest, type NewBaseline } from "./baselineRequest.js";

const SCOPES: ReadonlyArray<{ scope: BaselineScope; label: string }> = [
  { scope: "all", label: "All requirements" },
  { scope: "folder", label: "A folder and everything in it" },
  { scope: "individual", label: "Individual requirements" },
];

const EMPTY: BaselineFormValues = { name: "", description: "", scope: "all", folderId: null, requirementIds: [] };

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
  const { control, handleSubmit, formState } = useForm<BaselineFormValues>({
    resolver: zodResolver(baselineFormSchema),
    defaultValues: EMPTY,
    mode: "all",
  });
  // Only the scope decides which fields show: the rest of the form is not re-rendered per keystroke.
  const scope = useWatch({ control, name: "scope" });
  const save = handleSubmit((values) => submit(() => onSubmit(baselineRequest(values))));

  return (
    <FormDialog
      title="Create baseline"
      width="medium"
      shouldScrollInViewport
      isSubmitting={isSubmitting}
      isComplete={formState.isValid}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <Row>
        <Label htmlFor={ids.name}>
          Name<span aria-hidden="true"> *</span>
        </Label>
        <Controller
          control={control}
          name="name"
          render={({ field }) => <Textfield {...field} id={ids.name} autoFocus isDisabled={isSubmitting} />}
        />
      </Row>
      <Row>
        <Label htmlFor={ids.description}>Description</Label>
        <Controller
          control={control}
          name="description"
          render={({ field }) => <TextArea {...field} id={ids.description} minimumRows={3} isDisabled={isSubmitting} />}
        />
      </Row>
      <Row>
        <Controller
          control={control}
          name="scope"
          render={({ field }) => (
            <div role="radiogroup" aria-label="Requirements in the baseline" style={{ display: "grid", gap: token("space.050") }}>
              {SCOPES.map((entry) => (
                <label key={entry.scope} style={{ display: "inline-flex", alignItems: "center", gap: token("space.050") }}>
                  <input
                    type="radio"
                    name={ids.scope}
                    checked={field.value === entry.scope}
                    disabled={isSubmitting}
                    onChange={() => field.onChange(entry.scope)}
                  />
                  {entry.label}
                </label>
              ))}
            </div>
          )}
        />
      </Row>
      {scope === "folder" ? (
        <Row>
          <Controller
            control={control}
            name="folderId"
            render={({ field }) => (
              <FolderPicker
                projectId={projectId}
                label="Folder"
                restrictions={{ currentFolderId: undefined }}
                value={field.value ?? undefined}
                onChange={field.onChange}
              />
            )}
          />
        </Row>
      ) : null}
      {scope === "individual" ? (
        <Row>
          <Label htmlFor={ids.requirements}>Requirements</Label>
          <Controller
            control={control}
            name="requirementIds"
            render={({ field }) => (
              <RequirementPicker
                inputId={ids.requirements}
                scope={{ projectIds: [projectId] }}
                value={field.value}
                onChange={(chosen) => field.onChange([...chosen])}
                isDisabled={isSubmitting}
                placeholder="Type an ID or words to find requirements"
              />
            )}
          />
        </Row>
      ) : null}
    </FormDialog>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <div style={{ marginBottom: token("space.150") }}>{children}</div>;
}
