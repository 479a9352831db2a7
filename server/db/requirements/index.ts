/**
 * The requirement aggregate's store: a requirement's row, the rows hanging off it (components,
 * issue and page links, custom field values, attachments, links to other requirements) and its
 * revisions. The only way in from services and other stores; nothing else writes these tables.
 * Row types name their fields as the columns do (snake_case).
 */
export type { RequirementRow } from "./rows.js";
export { findRequirements, type ListPage, listRequirements, type RequirementFilter, type RequirementListRow } from "./reads.js";
export {
  activeRequirementIdsInFolders,
  countRequirementChildren,
  countRequirementsBefore,
  findRequirementPlace,
  listRequirementChildren,
  projectHasRequirements,
  type RequirementItemRow,
} from "./tree.js";
export { findRequirementDetail, findRequirementDetails, type LinkedRequirementRow, type RequirementDetailRow } from "./detail.js";
export { MATCH_END, MATCH_START, SEARCH_TIERS, type SearchHitRow, type SearchTerms, searchRequirements } from "./search.js";
export {
  attachmentsOwnedElsewhere,
  bumpRevisions,
  insertRequirement,
  lockRequirements,
  type RequirementChanges,
  replaceAttachments,
  replaceAttributeValues,
  replaceComponents,
  replaceContentLinks,
  replaceIssueLinks,
  setRequirementColumns,
} from "./writes.js";
export { createImportRows, insertImportBatch, insertStagedRequirements, stageImportRows } from "./bulkInsert.js";
export { addLinks, linkedRequirementIds, removeAllLinks, removeLinks } from "./links.js";
export { findRevisionSnapshots, insertRevisions, listRevisions, type RevisionRow, snapshotFromStored } from "./revisions.js";
export { displayIdHolders, isDisplayIdTaken, isDisplayIdUniqueViolation } from "./displayIds.js";
