import { reqifExportJob } from "../services/reqif/reqifExportJob.js";
import { importRequirementsJob } from "./importRequirementsJob.js";
import { matrixExportCleanupJob } from "./matrixExportCleanupJob.js";
import { matrixExportJob } from "./matrixExportJob.js";
import { requirementSavedJob } from "./requirementSavedJob.js";
import { reqifImportJob } from "../services/reqif/reqifImportJob.js";
import { xlsxExportJob } from "../services/csv/xlsxExport.js";
import { retentionJob } from "../services/retention/retentionJob.js";
import type { AnyJobDefinition } from "./defineJob.js";
import { issueDeletedJob } from "./issueDeletedJob.js";

/** Every job the add-on runs: each process sends and works these. Add a feature's jobs here. */
export const jobDefinitions: readonly AnyJobDefinition[] = [
  requirementSavedJob,
  matrixExportJob,
  matrixExportCleanupJob,
  importRequirementsJob,
  issueDeletedJob,
  retentionJob,
  reqifImportJob,
  reqifExportJob,
  xlsxExportJob,
];
