import { Label } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import Select from "@atlaskit/select";
import { Suspense, useId, useState } from "react";
import { useExportRequirements } from "../../api/csv.js";
import { DialogFooter } from "../../components/FormDialog/FormDialog.js";
import { lazyNamed } from "../../components/Lazy/lazyNamed.js";

const ReqifExportDialog = lazyNamed(() => import("../../components/ReqifExport/ReqifExportDialog.js"), "ReqifExportDialog");

type FormatOption = { label: string; value: "csv" | "xlsx" | "reqif" };
/** Spec sections 5 and 9: requirements export as CSV; issue 35 adds Excel and ReqIF for other requirements tools. */
const FORMATS: FormatOption[] = [
  { label: "CSV", value: "csv" },
  { label: "Excel (.xlsx)", value: "xlsx" },
  { label: "ReqIF", value: "reqif" },
];

/** Export requirements: choose the format, then the browser downloads the project's CSV or .xlsx (ReqIF has its own choices). */
export function ExportDialog({ projectId, onClose }: { projectId: number; onClose(): void }) {
  const formatId = useId();
  const [format, setFormat] = useState<FormatOption | null>(FORMATS[0] ?? null);
  const exporter = useExportRequirements(projectId);
  const formatField = (
    <>
      <Label htmlFor={formatId}>Format</Label>
      <Select<FormatOption> inputId={formatId} options={FORMATS} value={format} onChange={setFormat} />
    </>
  );
  if (format?.value === "reqif") {
    return (
      <Suspense fallback={null}>
        <ReqifExportDialog projectId={projectId} formatField={formatField} onClose={onClose} />
      </Suspense>
    );
  }
  return (
    <Modal onClose={exporter.isPending ? undefined : onClose} width="small">
      <ModalHeader>
        <ModalTitle>Export requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        {formatField}
        {exporter.isPending && format?.value === "xlsx" ? <div role="status">Generating your export...</div> : null}
      </ModalBody>
      <DialogFooter
        label="Export"
        isSubmitting={exporter.isPending}
        isDisabled={format === null}
        onConfirm={() => exporter.mutate(format?.value === "xlsx" ? "xlsx" : "csv", { onSuccess: onClose })}
        onCancel={onClose}
      />
    </Modal>
  );
}
