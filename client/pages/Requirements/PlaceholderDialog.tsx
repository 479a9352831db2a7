import Button from "@atlaskit/button/new";
import Modal, { ModalBody, ModalFooter, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";

/** Import and export get their own dialogs in their own issue; until then they say so. */
export function PlaceholderDialog({ title, onClose }: { title: string; onClose(): void }) {
  return (
    <Modal onClose={onClose} width="small">
      <ModalHeader>
        <ModalTitle>{title}</ModalTitle>
      </ModalHeader>
      <ModalBody>This is not available yet.</ModalBody>
      <ModalFooter>
        <Button appearance="primary" onClick={onClose}>
          Close
        </Button>
      </ModalFooter>
    </Modal>
  );
}
