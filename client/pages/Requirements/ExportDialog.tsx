import { Label } from "@atlaskit/form";
import Modal, { ModalBody, ModalHeader, ModalTitle } from "@atlaskit/modal-dialog";
import Select from "@atlaskit/select";
import { zodResolver } from "@hookform/resolvers/zod";
import { Suspense, useId } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { useExportRequirements } from "../../api/csv.js";
import { DialogFooter } from "../../components/FormDialog/FormDialog.js";
import { lazyNamed } from "../../components/Lazy/lazyNamed.js";

const ReqifExportDialog = lazyNamed(() => import("../../components/ReqifExport/ReqifExportDialog.js"), "ReqifExportDialog");

/** Spec sections 5 and 9: requirements export as CSV; issue 35 adds Excel and ReqIF for other requirements tools. */
const FORMATS = [
  { label: "CSV", value: "csv" },
  { label: "Excel (.xlsx)", value: "xlsx" },
  { label: "ReqIF", value: "reqif" },
] as const;
type FormatOption = (typeof FORMATS)[number];

const exportFormSchema = z.object({ format: z.enum(FORMATS.map((format) => format.value)) });
type ExportFormValues = z.infer<typeof exportFormSchema>;

/** Export requirements: choose the format, then the browser downloads the project's CSV or .xlsx (ReqIF has its own choices). */
export function ExportDialog({ projectId, onClose }: { projectId: number; onClose(): void }) {
  const formatId = useId();
  const { control, handleSubmit, formState } = useForm<ExportFormValues>({
    resolver: zodResolver(exportFormSchema),
    defaultValues: { format: "csv" },
    mode: "onChange",
  });
  const format = useWatch({ control, name: "format" });
  const exporter = useExportRequirements(projectId);
  const formatField = (
    <>
      <Label htmlFor={formatId}>Format</Label>
      <Controller
        control={control}
        name="format"
        render={({ field }) => (
          <Select<FormatOption>
            shouldPreventEscapePropagation
            inputId={formatId}
            options={FORMATS}
            value={FORMATS.find((option) => option.value === field.value) ?? null}
            onChange={(option) => field.onChange(option?.value)}
          />
        )}
      />
    </>
  );
  if (format === "reqif") {
    return (
      <Suspense fallback={null}>
        <ReqifExportDialog projectId={projectId} formatField={formatField} onClose={onClose} />
      </Suspense>
    );
  }
  const startExport = handleSubmit((choice) => exporter.mutate(choice.format === "xlsx" ? "xlsx" : "csv", { onSuccess: onClose }));
  return (
    <Modal onClose={exporter.isPending ? undefined : onClose} width="small">
      <ModalHeader>
        <ModalTitle>Export requirements</ModalTitle>
      </ModalHeader>
      <ModalBody>
        {formatField}
        {exporter.isPending && format === "xlsx" ? <div role="status">Generating your export...</div> : null}
      </ModalBody>
      <DialogFooter
        label="Export"
        isSubmitting={exporter.isPending}
        isDisabled={!formState.isValid}
        onConfirm={() => void startExport()}
        onCancel={onClose}
      />
    </Modal>
  );
}
