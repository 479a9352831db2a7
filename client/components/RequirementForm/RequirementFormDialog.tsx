import { ErrorMessage, Label } from "@atlaskit/form";
import Select from "@atlaskit/select";
import TextArea from "@atlaskit/textarea";
import Textfield from "@atlaskit/textfield";
import { token } from "@atlaskit/tokens";
import Tooltip from "@atlaskit/tooltip";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { GLOBAL_PROJECT_ID } from "../../api/projects.js";
import type { CustomAttribute, RequirementDetail, RequirementInput } from "../../api/requirements.js";
import { ContentPicker } from "../ContentPicker/ContentPicker.js";
import { IssuePicker } from "../IssuePicker/IssuePicker.js";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { FormDialog } from "../FormDialog/FormDialog.js";
import { RequirementPicker } from "../RequirementPicker/RequirementPicker.js";
import { linkableLevels } from "./linkableRequirements.js";
import {
  emptyRequirementForm,
  type RequirementFormValues,
  requirementFormFromDetail,
  requirementFormSchema,
  requirementInputFromForm,
} from "./requirementFormSchema.js";
import { type Option, useRequirementFormData } from "./useRequirementFormData.js";

export const TYPE_LOCKED_TOOLTIP = "To edit the requirement type, remove any linked requirements below.";

export type RequirementFormDialogProps = {
  projectId: number;
  title: string;
  /** The requirement being edited; absent when creating one. */
  existing?: RequirementDetail;
  /** Saves; rejects (after its own error toast) to keep the dialog open. */
  onSubmit(input: RequirementInput, linkedRequirementIds: number[]): Promise<unknown>;
  onClose(): void;
};

/** Create or edit a requirement (spec sections 2, 4 and 5). */
export function RequirementFormDialog({ projectId, title, existing, onSubmit, onClose }: RequirementFormDialogProps) {
  const isGlobal = projectId === GLOBAL_PROJECT_ID;
  const ids = useFieldIds();
  const { isSubmitting, submit } = useSubmitting(onClose);
  const { types, attributes, options, loading, onConfluence } = useRequirementFormData(projectId);
  const { control, handleSubmit, setValue, formState } = useForm<RequirementFormValues>({
    resolver: zodResolver(requirementFormSchema),
    defaultValues: existing ? requirementFormFromDetail(existing) : emptyRequirementForm,
    mode: "all",
  });
  // Only the type and the links decide other fields: the form does not re-render on every keystroke.
  const [typeId, linked] = useWatch({ control, name: ["requirement_type_id", "linked_requirements"] });
  const typeLocked = existing !== undefined && linked.length > 0;
  const linkLevels = linkableLevels(types, typeId);

  const save = handleSubmit((valid) =>
    submit(() => onSubmit(requirementInputFromForm(valid, { isGlobal, attributes, existing }), valid.linked_requirements)),
  );

  return (
    <FormDialog
      title={title}
      width="large"
      shouldScrollInViewport
      isSubmitting={isSubmitting}
      isComplete={formState.isValid}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <Controller
        control={control}
        name="name"
        render={({ field, fieldState }) => (
          <FieldRow label="Name" htmlFor={ids.name} required error={fieldState.error?.message}>
            <Textfield {...field} id={ids.name} autoFocus isInvalid={fieldState.invalid} isDisabled={isSubmitting} />
          </FieldRow>
        )}
      />
      <Controller
        control={control}
        name="requirement_type_id"
        render={({ field, fieldState }) => {
          const select = (
            <Select<Option<number>>
              shouldPreventEscapePropagation
              inputId={ids.type}
              options={options.types}
              value={options.types.find((option) => option.value === field.value) ?? null}
              onChange={(option) => {
                field.onChange(option?.value ?? null);
                // Spec section 4: another type means other levels, so the chosen links go.
                setValue("linked_requirements", []);
              }}
              onBlur={field.onBlur}
              isLoading={loading.types}
              isDisabled={isSubmitting || typeLocked}
              isInvalid={fieldState.invalid}
              placeholder="Choose a requirement type"
            />
          );
          return (
            <FieldRow label="Requirement type" htmlFor={ids.type} required error={fieldState.error?.message}>
              {typeLocked ? (
                <Tooltip content={TYPE_LOCKED_TOOLTIP}>
                  <div>{select}</div>
                </Tooltip>
              ) : (
                select
              )}
            </FieldRow>
          );
        }}
      />
      <Controller
        control={control}
        name="display_id"
        render={({ field }) => (
          <FieldRow label="Custom ID" htmlFor={ids.displayId}>
            <Textfield {...field} id={ids.displayId} isDisabled={isSubmitting} />
          </FieldRow>
        )}
      />
      <Controller
        control={control}
        name="description"
        render={({ field }) => (
          <FieldRow label="Description" htmlFor={ids.description}>
            <TextArea {...field} id={ids.description} minimumRows={4} isDisabled={isSubmitting} />
          </FieldRow>
        )}
      />
      {isGlobal ? null : (
        <>
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <FieldRow label="Status" htmlFor={ids.status}>
                <Select<Option<string>>
                  shouldPreventEscapePropagation
                  inputId={ids.status}
                  options={options.statuses}
                  value={options.statuses.find((option) => option.value === field.value) ?? null}
                  onChange={(option) => field.onChange(option?.value ?? null)}
                  isLoading={loading.statuses}
                  isClearable
                  isDisabled={isSubmitting}
                />
              </FieldRow>
            )}
          />
          <Controller
            control={control}
            name="assigned_to"
            render={({ field }) => (
              <FieldRow label="Assignee" htmlFor={ids.assignee}>
                <Select<Option<string>>
                  shouldPreventEscapePropagation
                  inputId={ids.assignee}
                  options={options.users}
                  value={options.users.find((option) => option.value === field.value) ?? null}
                  onChange={(option) => field.onChange(option?.value ?? null)}
                  isLoading={loading.users}
                  isClearable
                  isDisabled={isSubmitting}
                />
              </FieldRow>
            )}
          />
          <Controller
            control={control}
            name="components"
            render={({ field }) => (
              <FieldRow label="Components" htmlFor={ids.components}>
                <Select<Option<string>, true>
                  shouldPreventEscapePropagation
                  inputId={ids.components}
                  isMulti
                  options={options.components}
                  value={options.components.filter((option) => field.value.includes(option.value))}
                  onChange={(options) => field.onChange(options.map((option) => option.value))}
                  isLoading={loading.components}
                  isDisabled={isSubmitting}
                />
              </FieldRow>
            )}
          />
        </>
      )}
      {(attributes ?? []).map((attribute) => (
        <Controller
          key={attribute.attribute_id}
          control={control}
          name={`attributes.${attribute.attribute_id}`}
          render={({ field }) => (
            <AttributeInput
              attribute={attribute}
              id={`${ids.attribute}-${attribute.attribute_id}`}
              value={field.value ?? null}
              onChange={field.onChange}
              isDisabled={isSubmitting}
            />
          )}
        />
      ))}
      <Controller
        control={control}
        name="issues"
        render={({ field }) => (
          <FieldRow label="Linked issues" htmlFor={ids.issues}>
            <IssuePicker
              projectId={projectId}
              inputId={ids.issues}
              value={field.value}
              onChange={field.onChange}
              isDisabled={isSubmitting}
            />
          </FieldRow>
        )}
      />
      {onConfluence ? (
        <Controller
          control={control}
          name="contents"
          render={({ field, fieldState }) => (
            <FieldRow label="Linked Confluence content" htmlFor={ids.contents} error={fieldState.error?.message}>
              <ContentPicker inputId={ids.contents} value={field.value} onChange={field.onChange} isDisabled={isSubmitting} />
            </FieldRow>
          )}
        />
      ) : null}
      <Controller
        control={control}
        name="linked_requirements"
        render={({ field }) => (
          <FieldRow label="Linked requirements" htmlFor={ids.linked}>
            <RequirementPicker
              inputId={ids.linked}
              scope={{ projectIds: isGlobal ? [GLOBAL_PROJECT_ID] : [projectId, GLOBAL_PROJECT_ID], levels: linkLevels ?? [] }}
              value={field.value}
              onChange={field.onChange}
              known={existing?.linked_requirements_v2}
              exclude={existing ? [existing.requirement_id] : []}
              isLoading={loading.types}
              isDisabled={isSubmitting || linkLevels === null}
              placeholder={linkLevels === null ? "Choose a requirement type first" : "Select requirements"}
            />
          </FieldRow>
        )}
      />
    </FormDialog>
  );
}

function useFieldIds() {
  const base = useId();
  return {
    name: `${base}-name`,
    type: `${base}-type`,
    displayId: `${base}-display-id`,
    description: `${base}-description`,
    status: `${base}-status`,
    assignee: `${base}-assignee`,
    components: `${base}-components`,
    linked: `${base}-linked`,
    issues: `${base}-issues`,
    contents: `${base}-contents`,
    attribute: `${base}-attribute`,
  };
}

function FieldRow({
  label,
  htmlFor,
  required,
  error,
  children,
}: {
  label: string;
  htmlFor: string;
  required?: boolean;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div style={{ marginBottom: token("space.150") }}>
      <Label htmlFor={htmlFor}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </Label>
      {children}
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
    </div>
  );
}

type AttributeInputProps = {
  attribute: CustomAttribute;
  id: string;
  value: string | number | null;
  onChange(value: string | null): void;
  isDisabled: boolean;
};

/** A custom field: free text, or one of its options (the value is the option's id as text, as the API stores it). */
function AttributeInput({ attribute, id, value, onChange, isDisabled }: AttributeInputProps) {
  if (attribute.type === "select") {
    const options = attribute.options.map((option) => ({ label: option.name, value: option.attribute_option_id }));
    return (
      <FieldRow label={attribute.name} htmlFor={id}>
        <Select<Option<number>>
          shouldPreventEscapePropagation
          inputId={id}
          options={options}
          value={options.find((option) => option.value === Number(value)) ?? null}
          onChange={(option) => onChange(option ? String(option.value) : null)}
          isClearable
          isDisabled={isDisabled}
        />
      </FieldRow>
    );
  }
  return (
    <FieldRow label={attribute.name} htmlFor={id}>
      <Textfield
        id={id}
        value={value === null ? "" : String(value)}
        onChange={(event) => onChange(event.currentTarget.value)}
        isDisabled={isDisabled}
      />
    </FieldRow>
  );
}
