import path from "node:path";
import type { Readable } from "node:stream";
import type { RequirementDetail } from "../../../common/schemas/requirement.js";
import { insertImportBatch } from "../../db/requirements/index.js";
import { type FolderRow, insertFolder, updateFolder } from "../../db/folderStore.js";
import type { Db } from "../../db/knex.js";
import type { RequirementTypeRow } from "../../db/requirementTypeStore.js";
import { insertUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { newStoredFileName, storageKey } from "../../storage/objectStorage.js";
import { notFound } from "../../errors.js";
import type { AccessDecision } from "../access/projectAccess.js";
import type { Actor } from "../context.js";
import { updateRequirement } from "../requirements/updateRequirement.js";
import { loadRequirementDetails } from "../requirements/requirementViews.js";

/** A requirement as an import writes it. */
export type WrittenRequirement = {
  parentFolderId: number | null;
  requirementTypeId: number;
  name: string;
  description: string;
  displayId: string | null;
  /** attribute_id to value; an update keeps the requirement's other fields' values. */
  attributes: Record<string, string>;
};

/**
 * Every write a ReqIF import makes, through the product's own services and stores on the
 * import's transaction (`deps.db`): new requirements in batches with their 'created' revisions,
 * each update a normal 'updated' revision (in a savepoint, as a save from the form would), links
 * and attachments the same. `access` is Jira's answer asked before the import's transaction
 * opened: the updates' link checks answer from it.
 * Kept in one place so the import can move onto a single write path for requirements.
 */
export class ReqifWriter {
  constructor(
    private readonly deps: AppDeps & { db: Db },
    private readonly actor: Actor,
    private readonly projectId: number,
    private readonly access: AccessDecision,
  ) {}

  /** As the import's writes see it: every link, those to projects the person may not browse too (updateRequirement keeps them). */
  async read(requirementId: number): Promise<RequirementDetail> {
    const [detail] = await loadRequirementDetails(this.deps, this.actor, [requirementId]);
    if (!detail) throw notFound("Requirement");
    return detail;
  }

  async createFolder(parentFolderId: number | null, name: string): Promise<number> {
    return insertFolder(this.deps.db, this.actor.tenantId, {
      projectId: this.projectId,
      parentFolderId,
      name,
      createdBy: this.actor.accountId,
    });
  }

  /** A folder an earlier import created, renamed and moved as the file now has it. */
  async placeFolder(folder: FolderRow, parentFolderId: number | null, name: string): Promise<void> {
    if (folder.name === name && folder.parent_folder_id === parentFolderId) return;
    await updateFolder(this.deps.db, this.actor.tenantId, folder.folder_id, { name, description: folder.description, parentFolderId });
  }

  /**
   * New requirements of one type in one statement each batch, with their 'created' revisions (the
   * CSV import's batch insert); answers their ids in order.
   */
  async createRequirements(type: RequirementTypeRow, requirements: WrittenRequirement[]): Promise<number[]> {
    return insertImportBatch(
      this.deps.db,
      this.actor.tenantId,
      type,
      requirements.map((requirement) => ({
        project_id: this.projectId,
        parent_folder_id: requirement.parentFolderId,
        requirement_type_id: type.requirement_type_id,
        display_id: requirement.displayId,
        name: requirement.name,
        description: requirement.description,
        status_id: null,
        assigned_to: null,
        created_by: this.actor.accountId,
        component_ids: [],
        attributes: requirement.attributes,
      })),
    );
  }

  /** Name, description, custom ID, folder and the imported fields' values; the type stays (links may hold it). */
  async updateRequirement(current: RequirementDetail, requirement: WrittenRequirement): Promise<RequirementDetail> {
    return updateRequirement(
      this.deps,
      this.actor,
      current.requirement_id,
      {
        name: requirement.name,
        description: requirement.description,
        display_id: requirement.displayId,
        parent_folder_id: requirement.parentFolderId,
        attributes: { ...current.attributes, ...requirement.attributes },
      },
      this.access,
    );
  }

  async addLinks(current: RequirementDetail, linkedIds: number[]): Promise<void> {
    const linked = current.linked_requirements_v2.map((link) => link.requirement_id);
    await updateRequirement(this.deps, this.actor, current.requirement_id, { linked_requirements: [...linked, ...linkedIds] }, this.access);
  }

  /** Stores the file as an attachment upload of the site and puts it on the requirement's list. */
  async attach(current: RequirementDetail, file: { name: string; open: () => Promise<Readable> }): Promise<void> {
    const originalFileName = path.basename(file.name);
    const uuidFileName = newStoredFileName(originalFileName);
    const contentType = "application/octet-stream";
    await this.deps.storage.putStream(storageKey(this.actor.tenantId, "attachments", uuidFileName), await file.open(), contentType);
    await insertUpload(this.deps.db, this.actor.tenantId, {
      uuidFileName,
      operation: "attachment",
      originalFileName,
      contentType,
      createdBy: this.actor.accountId,
    });
    await updateRequirement(
      this.deps,
      this.actor,
      current.requirement_id,
      {
        attachments: [...current.attachments, { uuid_file_name: uuidFileName, original_file_name: originalFileName }],
      },
      this.access,
    );
  }
}
