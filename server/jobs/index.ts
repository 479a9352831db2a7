import { importRequirementsJob } from "../services/csv/importJob.js";
import { reqifExportJob } from "../services/reqif/reqifExportJob.js";
import { reqifImportJob } from "../services/reqif/reqifImportJob.js";
import { matrixExportCleanupJob } from "../services/matrix/matrixExportCleanupJob.js";
import { matrixExportJob } from "../services/matrix/matrixExportJob.js";
import { requirementSavedNotifications } from "../services/notifications/requirementSaved.js";
import { retentionJob } from "../services/retention/retentionJob.js";
import type { AnyJobDefinition } from "./defineJob.js";
import { issueDeletedJob } from "./issueDeletedJob.js";

/** Every job the add-on runs: each process sends and works these. Add a feature's jobs here. */
export const jobDefinitions: readonly AnyJobDefinition[] = [
  requirementSavedNotifications,
  matrixExportJob,
  matrixExportCleanupJob,
  importRequirementsJob,
  issueDeletedJob,
  retentionJob,
  reqifImportJob,
  reqifExportJob,
];
