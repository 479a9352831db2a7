import type { Knex } from "knex";
import * as initialSchema from "./0001_initial_schema.js";
import * as requirementTreeIndexes from "./0003_requirement_tree_indexes.js";
import * as jobStatus from "./0004_job_status.js";
import * as baselines from "./0005_baselines.js";
import * as hotReadIndexes from "./0007_hot_read_indexes.js";
import * as forgeInstallations from "./0008_forge_installations.js";
import * as csvImports from "./0011_csv_imports.js";
import * as endedJobsIndex from "./0012_ended_jobs_index.js";
import * as setBasedRequirementReferences from "./0013_set_based_requirement_references.js";
import * as requirementReferencesPlannedPerStatement from "./0014_requirement_references_planned_per_statement.js";
import * as requirementReferencesByPrimaryKey from "./0015_requirement_references_by_primary_key.js";
import * as tenantCloudIds from "./0016_tenant_cloud_ids.js";
import * as folderIssueLinksByIssue from "./0017_folder_issue_links_by_issue.js";
import * as requirementReferencesDeclared from "./0018_requirement_references_declared.js";
import * as requirementSearch from "./0021_requirement_search.js";
import * as boundedReads from "./0022_bounded_reads.js";
import * as lifecycleTokensAndRateLimits from "./0023_lifecycle_tokens_and_rate_limits.js";
import * as reqifIdentifiers from "./0024_reqif_identifiers.js";
import * as matrixLabelTrigrams from "./0028_matrix_label_trigrams.js";
import * as suspectLinks from "./0025_suspect_links.js";

type Migration = { up: (knex: Knex) => Promise<void>; down: (knex: Knex) => Promise<void> };

/**
 * Numbered, forward-only: append a new file and a line here; never edit a landed one.
 * Listed statically so the same source serves tsx, Vitest and bundled builds.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ["0001_initial_schema", initialSchema],
  ["0003_requirement_tree_indexes", requirementTreeIndexes],
  ["0004_job_status", jobStatus],
  ["0005_baselines", baselines],
  ["0007_hot_read_indexes", hotReadIndexes],
  ["0008_forge_installations", forgeInstallations],
  ["0011_csv_imports", csvImports],
  ["0012_ended_jobs_index", endedJobsIndex],
  ["0013_set_based_requirement_references", setBasedRequirementReferences],
  ["0014_requirement_references_planned_per_statement", requirementReferencesPlannedPerStatement],
  ["0015_requirement_references_by_primary_key", requirementReferencesByPrimaryKey],
  ["0016_tenant_cloud_ids", tenantCloudIds],
  ["0017_folder_issue_links_by_issue", folderIssueLinksByIssue],
  ["0018_requirement_references_declared", requirementReferencesDeclared],
  ["0021_requirement_search", requirementSearch],
  ["0022_bounded_reads", boundedReads],
  ["0023_lifecycle_tokens_and_rate_limits", lifecycleTokensAndRateLimits],
  ["0024_reqif_identifiers", reqifIdentifiers],
  ["0028_matrix_label_trigrams", matrixLabelTrigrams],
  ["0025_suspect_links", suspectLinks],
];
