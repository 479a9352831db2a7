import path from "node:path";
import type { Knex } from "knex";
import type { Attribute } from "../../../common/schemas/attribute.js";
import { FOLDER_NAME_MAX } from "../../../common/schemas/folder.js";
import { MAX_ATTACHMENT_BYTES } from "../../../common/schemas/storage.js";
import { prefixFor, type ReqifImportRequest, type ReqifImportResult } from "../../../common/schemas/reqif.js";
import { insertAttribute, listAttributes, lockAttributeNames } from "../../db/attributeStore.js";
import { displayIdHolders } from "../../db/requirements/index.js";
import { findFolder, lockFolderTree } from "../../db/folderStore.js";
import { vacuumAfterBulkWrite, type Db } from "../../db/knex.js";
import { findReqifTargets, lockReqifImports, type ReqifTarget, saveReqifTargets } from "../../db/reqifStore.js";
import {
  findRequirementType,
  insertRequirementTypes,
  listRequirementTypes,
  type RequirementTypeRow,
} from "../../db/requirementTypeStore.js";
import { findUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { fieldError } from "../../errors.js";
import type { Actor } from "../context.js";
import type { EmbeddedFile } from "./openReqifUpload.js";
import type { ReqifDocument, ReqifHierarchy, ReqifSpecObject } from "./reqifDocument.js";
import { fieldPlanOf, isChapterHeading, objectContentOf, standardRoleOf, typeNameFor, UNTYPED_OBJECTS_TYPE } from "./reqifMapping.js";
import { escapeHtml, textToHtml } from "./reqifXhtml.js";
import { ReqifFileError } from "./readReqif.js";
import { ReqifWriter, type WrittenRequirement } from "./reqifWriter.js";
import { type AccessDecision, accessDepsOf, askJiraBeforeTransaction } from "../access/projectAccess.js";

const FILE_NOT_FOUND = "The file was not found. Upload it again.";

/** What POST /api/import-reqif checks before it starts a job (and the job again inside its transaction). */
export async function checkReqifImportRequest(db: Db, actor: Actor, request: ReqifImportRequest): Promise<void> {
  const upload = await findUpload(db, actor.tenantId, request.file_name);
  if (upload?.operation !== "import") throw fieldError("file_name", FILE_NOT_FOUND);
  if (request.parent_folder_id !== null) {
    const folder = await findFolder(db, actor.tenantId, request.parent_folder_id);
    if (!folder || folder.project_id !== request.atlassian_project_id) {
      throw fieldError("parent_folder_id", "The folder does not exist in this project");
    }
  }
  for (const [identifier, mapping] of Object.entries(request.mapping.spec_object_types)) {
    if ("requirement_type_id" in mapping && !(await findRequirementType(db, actor.tenantId, mapping.requirement_type_id))) {
      throw fieldError("mapping", `Choose an existing requirement type for ${identifier}`);
    }
  }
}

export type ReqifImportHooks = {
  progress?: (rows: { completed?: number; total?: number }) => void;
  /** Inside the import's transaction after the last write: a job marks itself finished here. */
  beforeCommit?: (trx: Knex.Transaction, result: ReqifImportResult) => Promise<void>;
};

/**
 * The whole import in one transaction: every requirement, folder, field, type, link and
 * attachment of the file, or (on any error) none. Imports into one project take turns.
 */
export async function importReqifDocument(
  deps: AppDeps,
  actor: Actor,
  request: ReqifImportRequest,
  file: { document: ReqifDocument; files: EmbeddedFile[] },
  hooks: ReqifImportHooks = {},
): Promise<ReqifImportResult> {
  // A re-import updates requirements through updateRequirement, whose link checks answer from this decision.
  const access = await askJiraBeforeTransaction(accessDepsOf(deps), actor, [request.atlassian_project_id]);
  const imported = await deps.db.transaction(async (trx) => {
    await lockReqifImports(trx, actor.tenantId, request.atlassian_project_id);
    await lockFolderTree(trx, actor.tenantId, request.atlassian_project_id, "contents");
    await checkReqifImportRequest(trx, actor, request);
    const run = new ReqifImport({ ...deps, db: trx }, actor, request, file, hooks, access);
    const result = await run.import();
    await hooks.beforeCommit?.(trx, result);
    return result;
  });
  await vacuumAfterBulkWrite(deps.db);
  return imported;
}

/** Archive paths as the text names them and as the archive lists them ("./files\\a.png" is "files/a.png"). */
const sameFile = (a: string, b: string) => {
  const normalise = (name: string) => path.posix.normalize(name.replace(/\\/g, "/")).replace(/^\.\//, "");
  return normalise(a) === normalise(b);
};

type Placed = { requirementId: number; level: number; typeName: string };

/** Requirements per insert statement (the CSV import's batch size). */
const BATCH_ROWS = 2000;
const MAX_DESCRIPTION = 100_000;

class ReqifImport {
  private readonly writer: ReqifWriter;
  private readonly document: ReqifDocument;
  private readonly projectId: number;
  private readonly result: ReqifImportResult = {
    requirements_created: 0,
    requirements_updated: 0,
    folders_created: 0,
    links_created: 0,
    relations_skipped: [],
    not_imported: [],
  };
  private readonly placed = new Map<string, Placed>();
  private readonly types = new Map<string, RequirementTypeRow>();
  private fields = new Map<string, Attribute>();
  private targets = new Map<string, ReqifTarget>();
  private readonly newTargets: { identifier: string; target: ReqifTarget }[] = [];
  private completed = 0;
  private readonly displayIds = new Set<string>();
  /** The file's ForeignIDs that live requirements of the project held when the import began, each with its holder. */
  private displayIdsHeld = new Map<string, number>();
  /** Chapter headings of the hierarchy: folders, not requirements. */
  private readonly headings = new Set<string>();
  /** New requirements waiting for their batch, per requirement type. */
  private readonly pending = new Map<number, { type: RequirementTypeRow; identifiers: string[]; requirements: WrittenRequirement[] }>();

  constructor(
    private readonly deps: AppDeps & { db: Db },
    private readonly actor: Actor,
    private readonly request: ReqifImportRequest,
    private readonly file: { document: ReqifDocument; files: EmbeddedFile[] },
    private readonly hooks: ReqifImportHooks,
    access: AccessDecision,
  ) {
    this.writer = new ReqifWriter(deps, actor, request.atlassian_project_id, access);
    this.document = file.document;
    this.projectId = request.atlassian_project_id;
  }

  async import(): Promise<ReqifImportResult> {
    const { document } = this;
    this.hooks.progress?.({ completed: 0, total: document.specObjects.size + document.relations.length });
    this.targets = await findReqifTargets(this.deps.db, this.actor.tenantId, this.projectId, this.identifiersOfFile());
    this.displayIdsHeld = await displayIdHolders(this.deps.db, this.actor.tenantId, this.projectId, this.foreignIdsOfFile());
    await this.resolveTypes();
    await this.resolveFields();
    for (const specification of document.specifications) {
      const folderId = await this.folderFor(
        specification.identifier,
        this.request.parent_folder_id,
        specification.longName?.trim() || specification.identifier,
      );
      await this.walk(specification.children, folderId);
    }
    // Objects no specification shows are not lost: they land in the target folder.
    for (const object of document.specObjects.values()) {
      if (!this.placed.has(object.identifier) && !this.headings.has(object.identifier)) {
        await this.placeObject(object, this.request.parent_folder_id);
      }
    }
    for (const batch of [...this.pending.values()]) await this.flush(batch);
    await saveReqifTargets(this.deps.db, this.actor.tenantId, this.projectId, this.newTargets);
    await this.link();
    await this.attachFiles();
    return this.result;
  }

  private identifiersOfFile(): string[] {
    const identifiers = [...this.document.specObjects.keys()];
    const walk = (nodes: ReqifHierarchy[]) => {
      for (const node of nodes) {
        identifiers.push(node.identifier);
        walk(node.children);
      }
    };
    for (const specification of this.document.specifications) {
      identifiers.push(specification.identifier);
      walk(specification.children);
    }
    return identifiers;
  }

  /** Each spec object type onto its requirement type: the mapping's, else the one of its name, else a new one. */
  private async resolveTypes(): Promise<void> {
    const existing = await listRequirementTypes(this.deps.db, this.actor.tenantId);
    const byName = new Map(existing.map((type) => [type.name.trim().toLowerCase(), type]));
    const used = new Set([...this.document.specObjects.values()].map((object) => this.typeKeyOf(object)));
    for (const key of used) {
      const specType = this.document.specObjectTypes.get(key);
      const mapping = this.request.mapping.spec_object_types[key];
      if (mapping && "requirement_type_id" in mapping) {
        const type = await findRequirementType(this.deps.db, this.actor.tenantId, mapping.requirement_type_id, "share");
        if (!type) throw fieldError("mapping", `Choose an existing requirement type for ${key}`);
        this.types.set(key, type);
        continue;
      }
      const name = mapping?.name ?? typeNameFor(specType?.longName ?? UNTYPED_OBJECTS_TYPE);
      const known = mapping?.prefix === undefined && mapping?.level === undefined ? byName.get(name.toLowerCase()) : undefined;
      if (known) {
        this.types.set(key, known);
        continue;
      }
      const [created] = await insertRequirementTypes(this.deps.db, this.actor.tenantId, [
        { name, prefix: mapping?.prefix ?? prefixFor(name), level: mapping?.level ?? 1, levelEditable: true },
      ]);
      if (!created) throw new Error(`The requirement type ${name} was not created`);
      byName.set(name.toLowerCase(), created);
      this.types.set(key, created);
    }
  }

  /** An object's type as the file names it, or one key for all objects whose type it leaves out. */
  private typeKeyOf(object: ReqifSpecObject): string {
    return object.type !== undefined && this.document.specObjectTypes.has(object.type) ? object.type : UNTYPED_OBJECTS_TYPE;
  }

  /** Each attribute definition the objects use (the standard ones aside) onto the project's field of its name, created when missing. */
  private async resolveFields(): Promise<void> {
    const { db } = this.deps;
    const { tenantId } = this.actor;
    await lockAttributeNames(db, tenantId, this.projectId);
    const byName = (attributes: Attribute[]) => new Map(attributes.map((field) => [field.name.trim().toLowerCase(), field]));
    this.fields = byName(await listAttributes(db, tenantId, this.projectId));
    const definitions = new Set<string>();
    for (const object of this.document.specObjects.values()) for (const value of object.values) definitions.add(value.definition);
    const names = new Set(this.fields.keys());
    for (const identifier of definitions) {
      const definition = this.document.attributeDefinitions.get(identifier);
      if (!definition || standardRoleOf(definition)) continue;
      const plan = fieldPlanOf(definition);
      if (names.has(plan.name.toLowerCase())) continue;
      await insertAttribute(db, tenantId, {
        projectId: this.projectId,
        name: plan.name,
        type: plan.type,
        options: plan.type === "select" ? plan.options : [],
      });
      names.add(plan.name.toLowerCase());
    }
    if (names.size > this.fields.size) this.fields = byName(await listAttributes(db, tenantId, this.projectId));
  }

  private async walk(nodes: ReqifHierarchy[], folderId: number | null): Promise<void> {
    for (const node of nodes) {
      const object = node.object === undefined ? undefined : this.document.specObjects.get(node.object);
      if (node.object !== undefined && !object) {
        this.result.not_imported.push({
          identifier: node.identifier,
          reason: `Line ${node.line}: the hierarchy entry shows spec object ${node.object}, which the file does not hold`,
        });
      }
      const heading = object !== undefined && isChapterHeading(this.document, object);
      if (node.children.length === 0 && !heading) {
        if (object) await this.placeObject(object, folderId, node);
        continue;
      }
      const name = object ? objectContentOf(this.document, object).name : node.longName?.trim() || node.identifier;
      const childFolderId = await this.folderFor(node.identifier, folderId, name);
      // An object with children keeps its own text: a requirement in the folder its children go into.
      if (object && heading) this.headings.add(object.identifier);
      else if (object) await this.placeObject(object, childFolderId, node);
      await this.walk(node.children, childFolderId);
    }
  }

  private async folderFor(identifier: string, parentFolderId: number | null, name: string): Promise<number> {
    const folderName = name.length > FOLDER_NAME_MAX ? `${name.slice(0, FOLDER_NAME_MAX - 1)}…` : name;
    const target = this.targets.get(identifier);
    if (target && "folderId" in target) {
      const folder = await findFolder(this.deps.db, this.actor.tenantId, target.folderId);
      if (folder) {
        await this.writer.placeFolder(folder, parentFolderId, folderName);
        return folder.folder_id;
      }
    }
    const folderId = await this.writer.createFolder(parentFolderId, folderName);
    this.result.folders_created += 1;
    this.newTargets.push({ identifier, target: { folderId } });
    return folderId;
  }

  private async placeObject(object: ReqifSpecObject, folderId: number | null, node?: ReqifHierarchy): Promise<void> {
    if (this.placed.has(object.identifier)) {
      this.result.not_imported.push({
        identifier: node?.identifier ?? object.identifier,
        reason: `Line ${node?.line ?? object.line}: spec object ${object.identifier} is shown again; a requirement lives in one folder, where it is first shown`,
      });
      return;
    }
    const type = this.types.get(this.typeKeyOf(object));
    if (!type) throw new Error(`No requirement type for ${object.identifier}`);
    const content = objectContentOf(this.document, object);
    const attributes: Record<string, string> = {};
    const extra = [...content.extra];
    for (const [fieldName, value] of content.fields) {
      const field = this.fields.get(fieldName.toLowerCase());
      const option =
        field?.type === "select"
          ? field.options.find((candidate) => candidate.name.trim().toLowerCase() === value.toLowerCase())
          : undefined;
      if (field?.type === "string") attributes[field.attribute_id] = value;
      else if (field && option) attributes[field.attribute_id] = String(option.attribute_option_id);
      else extra.push(textToHtml(`${fieldName}: ${value}`));
    }
    const target = this.targets.get(object.identifier);
    const currentId = target && "requirementId" in target ? target.requirementId : undefined;
    let displayId = content.displayId;
    if (displayId !== null && !this.displayIdFree(displayId, currentId)) {
      extra.push(textToHtml(`ReqIF.ForeignID: ${displayId}`));
      displayId = null;
    }
    const written: WrittenRequirement = {
      parentFolderId: folderId,
      requirementTypeId: type.requirement_type_id,
      name: content.name,
      description: this.withoutAttachedObjects(object, content.description + extra.join("")),
      displayId,
      attributes,
    };
    if (written.description.length > MAX_DESCRIPTION) {
      throw new ReqifFileError(
        `Line ${object.line}: the text of spec object ${object.identifier} is longer than a requirement's description (${MAX_DESCRIPTION} characters)`,
      );
    }
    if (currentId !== undefined) {
      const detail = await this.writer.updateRequirement(await this.writer.read(currentId), written);
      this.placed.set(object.identifier, {
        requirementId: detail.requirement_id,
        level: detail.requirement_type.level,
        typeName: detail.requirement_type.name,
      });
      this.result.requirements_updated += 1;
    } else {
      const batch = this.pending.get(type.requirement_type_id) ?? { type, identifiers: [], requirements: [] };
      batch.identifiers.push(object.identifier);
      batch.requirements.push(written);
      this.pending.set(type.requirement_type_id, batch);
      // Placed now (its id comes with the batch), so a second showing of the object is known.
      this.placed.set(object.identifier, { requirementId: 0, level: type.level, typeName: type.name });
      if (batch.requirements.length >= BATCH_ROWS) await this.flush(batch);
    }
    this.step();
  }

  private async flush(batch: { type: RequirementTypeRow; identifiers: string[]; requirements: WrittenRequirement[] }): Promise<void> {
    const ids = await this.writer.createRequirements(batch.type, batch.requirements);
    batch.identifiers.forEach((identifier, index) => {
      const requirementId = ids[index];
      const placed = this.placed.get(identifier);
      if (requirementId === undefined || !placed) throw new Error(`The batch did not create ${identifier}`);
      placed.requirementId = requirementId;
      this.newTargets.push({ identifier, target: { requirementId } });
    });
    this.result.requirements_created += batch.requirements.length;
    this.pending.delete(batch.type.requirement_type_id);
  }

  /** The text shows a file of the archive as '[name]'; it becomes an attachment instead. */
  private withoutAttachedObjects(object: ReqifSpecObject, description: string): string {
    let text = description;
    for (const name of object.objectFiles) {
      if (!this.file.files.some((file) => sameFile(file.name, name))) continue;
      text = text.split(escapeHtml(`[${name}]`)).join("");
    }
    return text.replace(/<p>\s*<\/p>/g, "");
  }

  /**
   * A ForeignID is the custom ID only while no other requirement of the project has it: tools
   * write one ID on many objects (anonymised or copied files), and the project's IDs are unique.
   * The project's holders are read once for the whole file (displayIdHolders), not per object: an
   * ID that a requirement of this very file gives up during the import stays taken for the others.
   */
  private displayIdFree(displayId: string, requirementId: number | undefined): boolean {
    if (this.displayIds.has(displayId)) return false;
    const holder = this.displayIdsHeld.get(displayId);
    if (holder !== undefined && holder !== requirementId) return false;
    this.displayIds.add(displayId);
    return true;
  }

  private foreignIdsOfFile(): string[] {
    const ids = new Set<string>();
    for (const object of this.document.specObjects.values()) {
      const { displayId } = objectContentOf(this.document, object);
      if (displayId !== null) ids.add(displayId);
    }
    return [...ids];
  }

  private step(): void {
    this.completed += 1;
    this.hooks.progress?.({ completed: this.completed });
  }

  /**
   * Spec relations as links (undirected, as the product's are), where the level rule allows: the
   * two ends' types one level apart. Each source requirement is saved once with all its new links.
   */
  private async link(): Promise<void> {
    const added = new Map<number, Set<number>>();
    const pairs = new Set<string>();
    for (const relation of this.document.relations) {
      this.step();
      const skip = (reason: string) =>
        this.result.relations_skipped.push({ identifier: relation.identifier, reason: `Line ${relation.line}: ${reason}` });
      if (relation.source === undefined || relation.target === undefined) {
        skip(`the relation has no ${relation.source === undefined ? "source" : "target"}`);
        continue;
      }
      const source = this.placed.get(relation.source);
      const target = this.placed.get(relation.target);
      const heading = [relation.source, relation.target].find((end) => this.headings.has(end));
      if (heading !== undefined) {
        skip(`${heading} is a chapter heading (a folder here), not a requirement`);
        continue;
      }
      if (!source || !target) {
        skip(`its ${source ? "target" : "source"} ${source ? relation.target : relation.source} is not a spec object of the file`);
        continue;
      }
      if (source.requirementId === target.requirementId) {
        skip("it relates a spec object to itself");
        continue;
      }
      if (Math.abs(source.level - target.level) !== 1) {
        skip(
          `requirements link only one level apart: ${source.typeName} is level ${source.level} and ${target.typeName} level ${target.level}`,
        );
        continue;
      }
      const [low, high] = [source.requirementId, target.requirementId].sort((a, b) => a - b);
      const pair = `${low}-${high}`;
      if (pairs.has(pair)) continue;
      pairs.add(pair);
      const links = added.get(source.requirementId) ?? new Set<number>();
      links.add(target.requirementId);
      added.set(source.requirementId, links);
    }
    for (const [requirementId, linkedIds] of added) {
      const current = await this.writer.read(requirementId);
      const fresh = [...linkedIds].filter((id) => !current.linked_requirements_v2.some((link) => link.requirement_id === id));
      if (fresh.length === 0) continue;
      await this.writer.addLinks(current, fresh);
      this.result.links_created += fresh.length;
    }
  }

  /**
   * The files of a .reqifz on the requirements whose text shows them; a file no text shows goes
   * on the file's first requirement, so nothing is lost. A requirement that already has a file of
   * that name (an earlier import of the file) keeps it.
   */
  private async attachFiles(): Promise<void> {
    if (this.file.files.length === 0) return;
    const first = this.placed.values().next().value;
    for (const file of this.file.files) {
      const owners = [...this.document.specObjects.values()]
        .filter((object) => object.objectFiles.some((name) => sameFile(name, file.name)))
        .map((object) => this.placed.get(object.identifier))
        .filter((owner): owner is Placed => owner !== undefined);
      const targets = owners.length > 0 ? owners : first ? [first] : [];
      if (targets.length === 0 || file.size > MAX_ATTACHMENT_BYTES) {
        this.result.not_imported.push({
          identifier: file.name,
          reason: targets.length === 0 ? "the file has no requirement to attach it to" : "attachments are at most 25 MB",
        });
        continue;
      }
      for (const owner of targets) {
        const current = await this.writer.read(owner.requirementId);
        if (current.attachments.some((attachment) => attachment.original_file_name === path.basename(file.name))) continue;
        await this.writer.attach(current, file);
      }
    }
  }
}
