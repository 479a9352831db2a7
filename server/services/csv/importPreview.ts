import { fromSpreadsheetSafe, mapHeaders } from "../../../common/csvHeaders.js";
import { type ImportPreview, PREVIEW_VALUES_MAX } from "../../../common/schemas/csvImport.js";
import { findUpload } from "../../db/uploadStore.js";
import { fieldError } from "../../errors.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { importFormatOf } from "./importFormat.js";
import { FILE_NOT_FOUND } from "./importRequirements.js";

/**
 * POST /api/import-issues/preview: what the mapping dialog needs of an uploaded file, read as the
 * import job will read it (importFormatOf): for an .xlsx the workbook's sheets and the chosen
 * one's header row; the distinct values of its Component/s and Status columns, so the dialog can
 * name those the project lacks. The file streams through once; its values are bounded.
 */
export async function previewImportFile(
  deps: ServiceDeps<"storage">,
  actor: Actor,
  request: { file_name: string; sheet: string | null },
): Promise<ImportPreview> {
  const upload = await findUpload(deps.db, actor.tenantId, request.file_name);
  if (upload?.operation !== "import") throw fieldError("file_name", FILE_NOT_FOUND);
  const file = await deps.storage.getObject(storageKey(actor.tenantId, "imports", request.file_name));
  let sheets: string[] = [];
  const records = importFormatOf(request.file_name).records(file, {
    sheet: request.sheet,
    onSheets: (names) => {
      sheets = names;
    },
  });
  let headers: string[] | undefined;
  let columns: { components: number[]; status: number[] } = { components: [], status: [] };
  const values = { components: new Set<string>(), status: new Set<string>() };
  try {
    for await (const cells of records) {
      if (!headers) {
        headers = cells;
        // Custom fields never take a Component/s or Status column: the mapping of these needs none.
        const mapping = mapHeaders(headers, []);
        columns = { components: mapping.components, status: mapping.status === undefined ? [] : [mapping.status] };
        continue;
      }
      for (const group of ["components", "status"] as const) {
        for (const column of columns[group]) {
          const value = fromSpreadsheetSafe(cells[column] ?? "").trim();
          if (value && values[group].size < PREVIEW_VALUES_MAX) values[group].add(value);
        }
      }
    }
  } finally {
    file.destroy();
  }
  return {
    sheets,
    sheet: sheets.length === 0 ? null : (request.sheet ?? sheets[0] ?? null),
    headers: headers ?? [],
    values: { components: [...values.components], status: [...values.status] },
  };
}
