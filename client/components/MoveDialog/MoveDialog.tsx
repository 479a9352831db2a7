import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import { useState } from "react";
import { useSubmitting } from "../../hooks/useSubmitting.js";
import { FolderPicker } from "../FolderPicker/FolderPicker.js";
import { DialogFooter } from "../FormDialog/FormDialog.js";
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
  const [target, setTarget] = useState<MoveTarget | undefined>(undefined);
  const { isSubmitting, submit } = useSubmitting(onClose);
  return (
    <Modal onClose={isSubmitting ? undefined : onClose} width="medium">
      <ModalHeader>
        <ModalTitle>{title}</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <p>Choose the folder to move to.</p>
        <FolderPicker
          projectId={projectId}
          label="Target folder"
          topLevelLabel="Top Level"
          restrictions={restrictions}
          value={target}
          onChange={setTarget}
        />
      </ModalBody>
      <DialogFooter
        label="Move"
        isSubmitting={isSubmitting}
        isDisabled={target === undefined}
        onConfirm={() => {
          if (target !== undefined) void submit(() => onConfirm(target));
        }}
        onCancel={onClose}
      />
    </Modal>
  );
}
