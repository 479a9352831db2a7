import Button from "@atlaskit/button/new";
import Modal, { ModalBody, ModalFooter, ModalHeader, ModalTitle, ModalTransition } from "@atlaskit/modal-dialog";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { useEffect, useRef, useState } from "react";
import type { Attachment } from "../../../common/schemas/requirement.js";
import { useAddAttachment, useAttachmentUrl, useDeleteAttachment, useDownloadAttachment } from "../../api/attachments.js";
import { DeleteDialog } from "../DeleteDialog/DeleteDialog.js";
import { useFlags } from "../Flags/Flags.js";
import { attachmentSizeError, isPreviewable, PREVIEW_ERROR } from "./attachmentRules.js";

export type AttachmentsProps = {
  requirementId: number;
  attachments: readonly Attachment[];
};

/** Requirement detail, Attachments (spec sections 2, 4 and 8): list, preview, download, delete, file picker. */
export function Attachments({ requirementId, attachments }: AttachmentsProps) {
  const flags = useFlags();
  const picker = useRef<HTMLInputElement>(null);
  const add = useAddAttachment(requirementId);
  const remove = useDeleteAttachment(requirementId);
  const download = useDownloadAttachment();
  const [previewing, setPreviewing] = useState<Attachment | undefined>();
  const [deleting, setDeleting] = useState<Attachment | undefined>();

  const attach = (file: File) => {
    const tooLarge = attachmentSizeError(file.size);
    if (tooLarge) {
      flags.error(tooLarge);
      return;
    }
    add.mutate(file);
  };

  return (
    <section aria-label="Attachments">
      {attachments.length === 0 ? (
        <p>None</p>
      ) : (
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {attachments.map((attachment) => (
            <li
              key={attachment.uuid_file_name}
              aria-label={attachment.original_file_name}
              style={{ display: "flex", alignItems: "center", gap: token("space.100"), padding: `${token("space.050")} 0` }}
            >
              <span style={{ flex: 1, minWidth: 0, overflowWrap: "anywhere" }}>{attachment.original_file_name}</span>
              {isPreviewable(attachment.original_file_name) ? (
                <Button spacing="compact" aria-label={`Preview ${attachment.original_file_name}`} onClick={() => setPreviewing(attachment)}>
                  Preview
                </Button>
              ) : null}
              <Button
                spacing="compact"
                aria-label={`Download ${attachment.original_file_name}`}
                onClick={() => download.mutate(attachment)}
              >
                Download
              </Button>
              <Button
                spacing="compact"
                appearance="subtle"
                aria-label={`Delete attachment ${attachment.original_file_name}`}
                onClick={() => setDeleting(attachment)}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div style={{ display: "flex", alignItems: "center", gap: token("space.100"), marginTop: token("space.100") }}>
        <input
          ref={picker}
          type="file"
          aria-label="Choose a file to attach"
          hidden
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Cleared so that choosing the same file again still fires a change.
            event.currentTarget.value = "";
            if (file) attach(file);
          }}
        />
        <Button onClick={() => picker.current?.click()} isLoading={add.isPending}>
          Add attachment
        </Button>
        {add.isPending ? <Spinner size="small" label="Uploading attachment" /> : null}
      </div>
      <ModalTransition>
        {previewing ? <ImagePreviewDialog attachment={previewing} onClose={() => setPreviewing(undefined)} /> : null}
        {deleting ? (
          <DeleteDialog
            title="Delete attachment"
            onClose={() => setDeleting(undefined)}
            onConfirm={() => remove.mutateAsync(deleting.uuid_file_name)}
          >
            Are you sure you want to delete {deleting.original_file_name}?
          </DeleteDialog>
        ) : null}
      </ModalTransition>
    </section>
  );
}

/** Spec section 2, image preview modal: the image itself, from a freshly signed URL. */
function ImagePreviewDialog({ attachment, onClose }: { attachment: Attachment; onClose(): void }) {
  const flags = useFlags();
  const url = useAttachmentUrl(attachment);
  const [failed, setFailed] = useState(false);
  const isError = url.isError || failed;

  useEffect(() => {
    if (!isError) return;
    flags.error(PREVIEW_ERROR);
    onClose();
  }, [isError, flags, onClose]);

  return (
    <Modal onClose={onClose} width="x-large">
      <ModalHeader>
        <ModalTitle>{attachment.original_file_name}</ModalTitle>
      </ModalHeader>
      <ModalBody>
        {url.data ? (
          <img
            src={url.data}
            alt={attachment.original_file_name}
            style={{ display: "block", maxWidth: "100%", margin: "0 auto" }}
            onError={() => setFailed(true)}
          />
        ) : (
          <Spinner label="Loading preview" />
        )}
      </ModalBody>
      <ModalFooter>
        <Button appearance="primary" onClick={onClose}>
          Close
        </Button>
      </ModalFooter>
    </Modal>
  );
}
