import { Label } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import Select from "@atlaskit/select";
import { useId, useState } from "react";
import { useExportRequirements } from "../../api/csv.js";
import { useFlags } from "../../components/Flags/Flags.js";
import { DialogFooter } from "../../components/FormDialog/FormDialog.js";

type FormatOption = { label: string; value: "csv" };
/** Spec sections 5 and 9: requirements export as CSV only. */
const FORMATS: FormatOption[] = [{ label: "CSV", value: "csv" }];

/** Export requirements: choose the format, then the browser downloads the project's CSV. */
export function ExportDialog({ projectId, onClose }: { projectId: number; onClose(): void }) {
  const flags = useFlags();
  const formatId = useId();
  const [format, setFormat] = useState<FormatOption | null>(FORMATS[0] ?? null);
  const exporter = useExportRequirements(projectId);
  return (
    <Modal onClose={exporter.isPending ? undefined : onClose} width="small">
      <ModalHeader>
        <ModalTitle>Export requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        <Label htmlFor={formatId}>Format</Label>
        <Select<FormatOption> inputId={formatId} options={FORMATS} value={format} onChange={setFormat} />
      </ModalBody>
      <DialogFooter
        label="Export"
        isSubmitting={exporter.isPending}
        isDisabled={format === null}
        onConfirm={() =>
          exporter.mutate(undefined, {
            onSuccess: onClose,
            onError: (error) => flags.error(`There was a problem retrieving your requirements export: ${error.message}`),
          })
        }
        onCancel={onClose}
      />
    </Modal>
  );
}
