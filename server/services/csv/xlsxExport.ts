import { once } from "node:events";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { fromSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { type XlsxExportRequest, XlsxExportRequestSchema, xlsxExportFileName } from "../../../common/schemas/csvImport.js";
import { insertUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { defineJob } from "../../jobs/defineJob.js";
import { startJob } from "../../jobs/startJob.js";
import { newStoredFileName, storageKey } from "../../storage/objectStorage.js";
import type { Actor } from "../context.js";
import { exportRequirementRows } from "./exportRequirements.js";

const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const SHEET_NAME = "Requirements";

/**
 * The rows of an export (header first) as one sheet of an .xlsx, written to `out` through exceljs's
 * streaming writer: each row is written and let go, the header frozen above the others and given
 * an auto-filter. Every cell is a text cell holding its exact text (the CSV export's
 * spreadsheet-safe quote taken off again): a spreadsheet does not evaluate text as a formula, so
 * "=HYPERLINK(...)" shows as written. Texts go to the shared-string table, as Excel writes them;
 * that table is what grows with the file. Answers the rows written after the header.
 */
export async function writeXlsx(rows: AsyncIterable<string[]>, out: PassThrough, onRow?: (written: number) => void): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet(SHEET_NAME, { views: [{ state: "frozen", ySplit: 1 }] });
  let written = -1;
  for await (const row of rows) {
    const added = sheet.addRow(row.map(fromSpreadsheetSafe));
    if (written === -1) {
      added.font = { bold: true };
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, row.length) } };
    }
    added.commit();
    written += 1;
    if (written > 0) onRow?.(written);
    // The writer does not wait for its reader: a slow storage would otherwise have the sheet pile up in memory.
    if (out.writableNeedDrain) await once(out, "drain");
  }
  sheet.commit();
  await workbook.commit();
  return Math.max(0, written);
}

/**
 * The .xlsx export on the job queue (issue 35): the CSV export's rows and columns, written into
 * storage as a workbook and recorded as an export of the site, which POST /api/sign-s3-get hands
 * out by `result.file_name`.
 */
export const xlsxExportJob = defineJob({
  name: "export-xlsx",
  payload: XlsxExportRequestSchema,
  retry: { expireInSeconds: 3600 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    const originalFileName = xlsxExportFileName(new Date());
    const uuidFileName = newStoredFileName(originalFileName);
    const out = new PassThrough();
    const stored = deps.storage.putStream(storageKey(job.tenantId, "exports", uuidFileName), out, XLSX_CONTENT_TYPE);
    let totalRows: number;
    try {
      totalRows = await writeXlsx(exportRequirementRows(deps, actor, payload.atlassian_project_id), out, (completed) =>
        job.progress({ completed }),
      );
    } catch (error) {
      out.destroy(error as Error);
      await stored.catch(() => undefined);
      throw error;
    }
    await stored;
    await insertUpload(deps.db, job.tenantId, {
      uuidFileName,
      operation: "export",
      originalFileName,
      contentType: XLSX_CONTENT_TYPE,
      createdBy: job.accountId,
    });
    return { file_name: uuidFileName, original_file_name: originalFileName, total_rows: totalRows };
  },
});

/** POST /api/requirement/export/xlsx: the job to follow; the route has checked the project. */
export const startXlsxExport = (deps: Pick<AppDeps, "db" | "jobs">, actor: Actor, request: XlsxExportRequest): Promise<string> =>
  startJob(deps, actor, xlsxExportJob, request);
