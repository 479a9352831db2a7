import Button from "@atlaskit/button/new";
import Modal, { ModalBody, ModalFooter, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import type { ReactNode } from "react";
import { useSubmitting } from "./useSubmitting.js";

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
      <ModalFooter>
        <Button appearance="subtle" onClick={onClose} isDisabled={isSubmitting}>
          Cancel
        </Button>
        <Button appearance="danger" onClick={() => submit(onConfirm)} isLoading={isSubmitting}>
          Delete
        </Button>
      </ModalFooter>
    </Modal>
  );
}
