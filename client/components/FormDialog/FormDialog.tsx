import Button from "@atlaskit/button/new";
import Modal, { ModalBody, ModalFooter, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import type { ReactNode } from "react";

export type DialogFooterProps = {
  /** The action's button text (OK, Move, Delete). */
  label: string;
  appearance?: "primary" | "danger";
  isSubmitting: boolean;
  isDisabled?: boolean;
  /** Without it the action button submits the dialog's form. */
  onConfirm?(): void;
  onCancel(): void;
};

/** Cancel and the dialog's action; Cancel stays disabled while the action runs so it cannot be abandoned half-way. */
export function DialogFooter({ label, appearance = "primary", isSubmitting, isDisabled, onConfirm, onCancel }: DialogFooterProps) {
  return (
    <ModalFooter>
      <Button appearance="subtle" onClick={onCancel} isDisabled={isSubmitting}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? "button" : "submit"}
        appearance={appearance}
        isDisabled={isDisabled}
        isLoading={isSubmitting}
        onClick={onConfirm}
      >
        {label}
      </Button>
    </ModalFooter>
  );
}

export type FormDialogProps = {
  title: string;
  width: "small" | "medium" | "large";
  shouldScrollInViewport?: boolean;
  isSubmitting: boolean;
  /** Whether OK is enabled. */
  isComplete: boolean;
  onSubmit(): void;
  onClose(): void;
  children: ReactNode;
};

/** A create/edit dialog: its fields inside one form, so Enter submits like OK does. */
export function FormDialog({
  title,
  width,
  shouldScrollInViewport,
  isSubmitting,
  isComplete,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width={width} shouldScrollInViewport={shouldScrollInViewport}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <ModalHeader>
          <ModalTitle>{title}</ModalTitle>
        </ModalHeader>
        <ModalBody>{children}</ModalBody>
        <DialogFooter label="OK" isSubmitting={isSubmitting} isDisabled={!isComplete} onCancel={onClose} />
      </form>
    </Modal>
  );
}
