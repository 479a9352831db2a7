import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { type MoveChoice, type MoveFormValues, moveFormSchema } from "./moveForm.js";
import type { MoveRestrictions, MoveTarget } from "./moveTargets.js";

export type MoveDialogProps = MoveRestrictions & {
  projectId: number;
  title: string;
  /** Moves; rejects (after its own error toast) to keep the dialog open. */
  onConfirm(target: MoveTarget): Promise<unknown>;
  onClose(): void;
};

/** Move a folder or requirements: pick a target folder, or 'Top Level'. */
export function MoveDialog({ projectId, title, onConfirm, onClose, ...restrictions }: MoveDialogProps) {
  const { isSubmitting, submit } = useSubmitting(onClose);
  const { control, handleSubmit, formState } = useForm<MoveFormValues, unknown, MoveChoice>({
    resolver: zodResolver(moveFormSchema),
    defaultValues: { target: undefined },
    mode: "onChange",
  });
  const move = handleSubmit(({ target }) => submit(() => onConfirm(target)));
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="medium">
      <ModalHeader>
        <ModalTitle>{title}</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <p>Choose the folder to move to.</p>
        <Controller
          control={control}
          name="target"
          render={({ field }) => (
            <FolderPicker
              projectId={projectId}
              label="Target folder"
              topLevelLabel="Top Level"
              restrictions={restrictions}
              value={field.value}
              onChange={(target) => field.onChange(target)}
            />
          )}
        />
      </ModalBody>
      <DialogFooter
        label="Move"
        isSubmitting={isSubmitting}
        isDisabled={!formState.isValid}
        onConfirm={() => void move()}
        onCancel={onClose}
      />
    </Modal>
  );
}
