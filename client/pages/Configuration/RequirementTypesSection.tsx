import Button from "@atlaskit/button/new";
import DynamicTable from "@atlaskit/dynamic-table";
import { ErrorMessage, Label } from "@atlaskit/form";
import Heading from "@atlaskit/heading";
import { Box, Inline, Stack } from "@atlaskit/primitives";
import Textfield from "@atlaskit/textfield";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import {
  CreateRequirementTypeSchema,
  REQUIREMENT_TYPE_NAME_MAX,
  REQUIREMENT_TYPE_PREFIX_MAX,
  type RequirementType,
  requirementLevelSchema,
} from "../../../common/schemas/requirementType.js";
import { type RequirementType as ListedType, useRequirementTypes } from "../../api/requirementTypes.js";
import { DeleteDialog } from "../../components/DeleteDialog/DeleteDialog.js";
import { InlineEdit } from "../../components/InlineEdit/InlineEdit.js";
import { failureShown } from "../../api/queryClient.js";
import { type RequirementTypeChanges, useRequirementTypeMutations } from "./requirementTypeMutations.js";

const CreateFormSchema = CreateRequirementTypeSchema.pick({ name: true, prefix: true });
type CreateFormValues = z.input<typeof CreateFormSchema>;

/** The inline edit's read view pads its value by space.100; plain cells of the same row line up with it. */
const INLINE_EDIT_OFFSET = "space.100";

/** The list answer carries level_editable (common/schemas/requirementType.ts); a type without it keeps its level. */
function adminType(type: ListedType): RequirementType {
  const editable = (type as ListedType & { level_editable?: boolean }).level_editable;
  return { ...type, level: type.level ?? 1, level_editable: editable === true };
}

/** Spec sections 2 and 5: list, create (name and prefix), inline edit, delete with a confirmation. */
export function RequirementTypesSection() {
  const types = useRequirementTypes();
  const { update, remove } = useRequirementTypeMutations();
  const [deleting, setDeleting] = useState<RequirementType>();

  const save = (type: RequirementType, changes: Partial<RequirementTypeChanges>) => update.mutateAsync({ type, changes });

  const rows = (types.data ?? []).map(adminType).map((type) => ({
    key: String(type.requirement_type_id),
    cells: [
      {
        key: "name",
        content: (
          <InlineEdit
            label={`Name of ${type.name}`}
            value={type.name}
            schema={CreateRequirementTypeSchema.shape.name}
            onConfirm={(name) => save(type, { name })}
          />
        ),
      },
      {
        key: "prefix",
        content: (
          <InlineEdit
            label={`Prefix of ${type.name}`}
            value={type.prefix}
            schema={CreateRequirementTypeSchema.shape.prefix}
            onConfirm={(prefix) => save(type, { prefix })}
          />
        ),
      },
      {
        key: "level",
        content: type.level_editable ? (
          <InlineEdit
            label={`Level of ${type.name}`}
            value={String(type.level)}
            schema={requirementLevelSchema}
            onConfirm={(level) => save(type, { level })}
          />
        ) : (
          <Box paddingBlockStart={INLINE_EDIT_OFFSET} paddingBlockEnd="space.100">
            {type.level}
          </Box>
        ),
      },
      {
        key: "actions",
        content: (
          <Box paddingBlockStart="space.050">
            <Button appearance="subtle" onClick={() => setDeleting(type)} aria-label={`Delete ${type.name}`}>
              Delete
            </Button>
          </Box>
        ),
      },
    ],
  }));

  return (
    <Stack space="space.200">
      <Heading size="medium" as="h2">
        Requirement Types
      </Heading>
      <CreateRequirementTypeForm />
      <DynamicTable
        label="Requirement types"
        head={{
          cells: [
            { key: "name", content: "Name" },
            { key: "prefix", content: "Prefix" },
            { key: "level", content: "Level" },
            { key: "actions", content: "" },
          ],
        }}
        rows={rows}
        isLoading={types.isLoading}
        emptyView={<p>No requirement types yet.</p>}
      />
      {deleting ? (
        <DeleteDialog title="Delete requirement type" onClose={() => setDeleting(undefined)} onConfirm={() => remove.mutateAsync(deleting)}>
          Delete the requirement type "{deleting.name}" ({deleting.prefix})? A type that active requirements still have cannot be deleted.
        </DeleteDialog>
      ) : null}
    </Stack>
  );
}

function CreateRequirementTypeForm() {
  const { create } = useRequirementTypeMutations();
  const nameId = useId();
  const prefixId = useId();
  const { control, handleSubmit, formState, reset } = useForm<CreateFormValues, unknown, z.output<typeof CreateFormSchema>>({
    resolver: zodResolver(CreateFormSchema),
    defaultValues: { name: "", prefix: "" },
    mode: "all",
  });
  const submit = handleSubmit(async (values) => {
    await create.mutateAsync(values).then(() => reset(), failureShown);
  });
  const field = (name: "name" | "prefix", id: string, label: string, maxLength: number) => (
    <Controller
      control={control}
      name={name}
      render={({ field: props, fieldState }) => (
        <Stack space="space.050">
          <Label htmlFor={id}>{label}</Label>
          <Textfield
            {...props}
            id={id}
            maxLength={maxLength + 1}
            isInvalid={fieldState.invalid && fieldState.isTouched}
            isDisabled={create.isPending}
          />
          {fieldState.error && fieldState.isTouched ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
        </Stack>
      )}
    />
  );
  return (
    <form
      aria-label="Create a requirement type"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Inline space="space.150" alignBlock="end">
        {field("name", nameId, "Name", REQUIREMENT_TYPE_NAME_MAX)}
        {field("prefix", prefixId, "Prefix", REQUIREMENT_TYPE_PREFIX_MAX)}
        <Button type="submit" appearance="primary" isDisabled={!formState.isValid} isLoading={create.isPending}>
          Create requirement type
        </Button>
      </Inline>
    </form>
  );
}
