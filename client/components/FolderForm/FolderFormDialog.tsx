import { ErrorMessage, Label } from "@atlaskit/form";
import Textfield from "@atlaskit/textfield";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { FormDialog } from "../FormDialog/FormDialog.js";
import { FOLDER_NAME_MAX_LENGTH, type FolderFormValues, folderFormSchema } from "./folderFormSchema.js";

export type FolderFormDialogProps = {
  title: string;
  initialName?: string;
  /** Saves; rejects (after its own error toast) to keep the dialog open. */
  onSubmit(name: string): Promise<unknown>;
  onClose(): void;
};

/** Create or rename a folder (spec section 5: name required, at most 100 characters, no backslash). */
export function FolderFormDialog({ title, initialName = "", onSubmit, onClose }: FolderFormDialogProps) {
  const inputId = useId();
  const { isSubmitting, submit } = useSubmitting(onClose);
  const { control, handleSubmit, formState } = useForm<FolderFormValues, unknown, { name: string }>({
    resolver: zodResolver(folderFormSchema),
    defaultValues: { name: initialName },
    mode: "all",
  });
  const save = handleSubmit((values) => submit(() => onSubmit(values.name)));
  return (
    <FormDialog
      title={title}
      width="small"
      isSubmitting={isSubmitting}
      isComplete={formState.isValid}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <Label htmlFor={inputId}>Name</Label>
      <Controller
        control={control}
        name="name"
        render={({ field, fieldState }) => (
          <>
            <Textfield
              {...field}
              id={inputId}
              autoFocus
              maxLength={FOLDER_NAME_MAX_LENGTH + 1}
              isInvalid={fieldState.invalid}
              isDisabled={isSubmitting}
            />
            {fieldState.error ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
          </>
        )}
      />
    </FormDialog>
  );
}
