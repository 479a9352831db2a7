import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import type { ReactNode } from "react";
import { DialogFooter } from "../FormDialog/FormDialog.js";
import { useSubmitting } from "../../hooks/useSubmitting.js";

export type DeleteDialogProps = {
  title: string;
  children: ReactNode;
  /** Deletes; rejects (after its own error toast) to keep the dialog open. */
  onConfirm(): Promise<unknown>;
  onClose(): void;
};

/** Confirmation before deleting a folder or one or more requirements. */
export function DeleteDialog({ title, children, onConfirm, onClose }: DeleteDialogProps) {
  const { isSubmitting, submit } = useSubmitting(onClose);
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="small">
      <ModalHeader>
        <ModalTitle appearance="danger">{title}</ModalTitle>
      </ModalHeader>
      <ModalBody>{children}</ModalBody>
      <DialogFooter label="Delete" appearance="danger" isSubmitting={isSubmitting} onConfirm={() => submit(onConfirm)} onCancel={onClose} />
    </Modal>
  );
}
