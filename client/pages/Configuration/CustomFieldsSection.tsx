import Button from "@atlaskit/button/new";
import DynamicTable from "@atlaskit/dynamic-table";
import { ErrorMessage, HelperMessage, Label } from "@atlaskit/form";
import Heading from "@atlaskit/heading";
import { Inline, Stack } from "@atlaskit/primitives";
import Select from "@atlaskit/select";
import Textfield from "@atlaskit/textfield";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useMemo, useState } from "react";
import { Controller, useFieldArray, useForm, useWatch } from "react-hook-form";
import {
  type Attribute,
  type AttributeType,
  attributeTypeLabels,
  type CreateAttribute,
  type CreateAttributeInput,
  CreateAttributeSchema,
  MAX_ATTRIBUTE_NAME_LENGTH,
  MAX_ATTRIBUTE_OPTION_LENGTH,
  MAX_ATTRIBUTE_OPTIONS,
} from "../../../common/schemas/attribute.js";
import { useAttributes, useCreateAttribute, useDeleteAttribute } from "../../api/attributes.js";
import { type Project, useProjects } from "../../api/projects.js";
import { DeleteDialog } from "../../components/DeleteDialog/DeleteDialog.js";
import { failureShown } from "../../api/queryClient.js";

type Option<V> = { label: string; value: V };
const typeOptions: Option<AttributeType>[] = (["string", "select"] as const).map((value) => ({
  label: attributeTypeLabels[value],
  value,
}));

/** Spec sections 2 and 5: the custom fields of every project, a create form, delete with a confirmation. */
export function CustomFieldsSection() {
  const attributes = useAttributes();
  const projects = useProjects();
  const remove = useDeleteAttribute();
  const [deleting, setDeleting] = useState<Attribute>();

  const projectName = useMemo(() => {
    const names = new Map((projects.data ?? []).map((project) => [project.id, project.name]));
    return (id: number) => names.get(id) ?? `Project ${id}`;
  }, [projects.data]);

  const rows = (attributes.data ?? []).map((attribute) => ({
    key: String(attribute.attribute_id),
    cells: [
      { key: "name", content: attribute.name },
      { key: "project", content: projectName(attribute.atlassian_project_id) },
      { key: "type", content: attributeTypeLabels[attribute.type] },
      { key: "options", content: attribute.options.map((option) => option.name).join(", ") || "None" },
      {
        key: "actions",
        content: (
          <Button appearance="subtle" onClick={() => setDeleting(attribute)} aria-label={`Delete ${attribute.name}`}>
            Delete
          </Button>
        ),
      },
    ],
  }));

  return (
    <Stack space="space.200">
      <Heading size="medium" as="h2">
        Custom Fields
      </Heading>
      <CreateCustomFieldForm projects={projects.data ?? []} projectsLoading={projects.isLoading} />
      <DynamicTable
        label="Custom fields"
        head={{
          cells: [
            { key: "name", content: "Name" },
            { key: "project", content: "Project" },
            { key: "type", content: "Field type" },
            { key: "options", content: "Options" },
            { key: "actions", content: "" },
          ],
        }}
        rows={rows}
        isLoading={attributes.isLoading}
        emptyView={<p>No custom fields yet.</p>}
      />
      {deleting ? (
        <DeleteDialog
          title="Delete custom field"
          onClose={() => setDeleting(undefined)}
          onConfirm={() => remove.mutateAsync(deleting.attribute_id)}
        >
          Delete the custom field "{deleting.name}"? The field and all its data on every requirement are removed. This cannot be undone.
        </DeleteDialog>
      ) : null}
    </Stack>
  );
}

const emptyForm: CreateAttributeInput = { name: "", project: "", type: "string", options: [] };

function CreateCustomFieldForm({ projects, projectsLoading }: { projects: Project[]; projectsLoading: boolean }) {
  const create = useCreateAttribute();
  const ids = { name: useId(), project: useId(), type: useId() };
  const { control, handleSubmit, formState, reset, setValue } = useForm<CreateAttributeInput, unknown, CreateAttribute>({
    resolver: zodResolver(CreateAttributeSchema),
    defaultValues: emptyForm,
    mode: "all",
  });
  const options = useFieldArray({ control, name: "options" });
  const [type, name, project] = useWatch({ control, name: ["type", "name", "project"] });
  const projectOptions: Option<number>[] = projects.map((p) => ({ label: p.name, value: p.id }));
  const canSubmit = name.trim() !== "" && project !== "" && formState.isValid;

  const submit = handleSubmit(async (values) => {
    await create.mutateAsync(values).then(() => reset(emptyForm), failureShown);
  });

  return (
    <form
      aria-label="Create a custom field"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack space="space.150">
        <Inline space="space.150" alignBlock="start" shouldWrap>
          <Controller
            control={control}
            name="name"
            render={({ field, fieldState }) => (
              <Stack space="space.050">
                <Label htmlFor={ids.name}>Field name</Label>
                <Textfield
                  {...field}
                  id={ids.name}
                  maxLength={MAX_ATTRIBUTE_NAME_LENGTH + 1}
                  isInvalid={fieldState.invalid && fieldState.isTouched}
                />
                {fieldState.error && fieldState.isTouched ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
              </Stack>
            )}
          />
          <Controller
            control={control}
            name="project"
            render={({ field }) => (
              <Stack space="space.050">
                <Label htmlFor={ids.project}>Project</Label>
                <div style={{ minWidth: 240 }}>
                  <Select<Option<number>>
                    shouldPreventEscapePropagation
                    inputId={ids.project}
                    options={projectOptions}
                    isLoading={projectsLoading}
                    placeholder="Select a project"
                    value={projectOptions.find((option) => String(option.value) === String(field.value)) ?? null}
                    onChange={(option) => field.onChange(option?.value ?? "")}
                    onBlur={field.onBlur}
                  />
                </div>
              </Stack>
            )}
          />
          <Controller
            control={control}
            name="type"
            render={({ field }) => (
              <Stack space="space.050">
                <Label htmlFor={ids.type}>Field type</Label>
                <div style={{ minWidth: 260 }}>
                  <Select<Option<AttributeType>>
                    shouldPreventEscapePropagation
                    inputId={ids.type}
                    options={typeOptions}
                    value={typeOptions.find((option) => option.value === field.value) ?? null}
                    onChange={(option) => {
                      const next = option?.value ?? "string";
                      field.onChange(next);
                      // A select field starts with one option to fill in; a standard field keeps none.
                      setValue("options", next === "select" ? [{ name: "" }] : [], { shouldValidate: true });
                    }}
                  />
                </div>
              </Stack>
            )}
          />
        </Inline>
        {type === "select" ? (
          <Stack space="space.100">
            <Label htmlFor={`${ids.type}-option-0`}>Options</Label>
            <HelperMessage>
              Between 1 and {MAX_ATTRIBUTE_OPTIONS} options, each up to {MAX_ATTRIBUTE_OPTION_LENGTH} characters.
            </HelperMessage>
            {options.fields.map((option, index) => (
              <Controller
                key={option.id}
                control={control}
                name={`options.${index}.name`}
                render={({ field, fieldState }) => (
                  <Stack space="space.050">
                    <Inline space="space.100" alignBlock="center">
                      <div style={{ minWidth: 320 }}>
                        <Textfield
                          {...field}
                          id={`${ids.type}-option-${index}`}
                          aria-label={`Option ${index + 1}`}
                          isInvalid={fieldState.invalid && (fieldState.isTouched || fieldState.isDirty)}
                        />
                      </div>
                      <Button
                        appearance="subtle"
                        onClick={() => options.remove(index)}
                        isDisabled={options.fields.length <= 1}
                        aria-label={`Remove option ${index + 1}`}
                      >
                        Remove
                      </Button>
                    </Inline>
                    {fieldState.error && (fieldState.isTouched || fieldState.isDirty) ? (
                      <ErrorMessage>{fieldState.error.message}</ErrorMessage>
                    ) : null}
                  </Stack>
                )}
              />
            ))}
            <Inline>
              <Button onClick={() => options.append({ name: "" })} isDisabled={options.fields.length >= MAX_ATTRIBUTE_OPTIONS}>
                Add option
              </Button>
            </Inline>
          </Stack>
        ) : null}
        <Inline>
          <Button type="submit" appearance="primary" isDisabled={!canSubmit} isLoading={create.isPending}>
            Create custom field
          </Button>
        </Inline>
      </Stack>
    </form>
  );
}
