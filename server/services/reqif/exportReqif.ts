import path from "node:path";
import type { Readable } from "node:stream";
import type { Attribute } from "../../../common/schemas/attribute.js";
import type { ReqifExportRequest } from "../../../common/schemas/reqif.js";
import { listAttributes } from "../../db/attributeStore.js";
import { findBaseline, pageBaselineRevisions } from "../../db/baselineStore.js";
import { exportPage, projectFolders } from "../../db/csvExportStore.js";
import { findFolder, folderSubtreeIds } from "../../db/folderStore.js";
import { attachmentsOfRequirements, reqifIdentifiersOfRequirements } from "../../db/reqifStore.js";
import { listRequirementTypes, type RequirementTypeRow } from "../../db/requirementTypeStore.js";
import { fieldError } from "../../errors.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { descriptionAsXhtml, element, isXmlId, REQIF_NAMESPACE, ref, XHTML_NAMESPACE, xml } from "./reqifXml.js";

/** Requirements read per page. */
const PAGE = 1000;
const TOOL = "rmCloud";
/** The longest text a requirement holds (a description). */
const STRING_MAX_LENGTH = 100_000;

/** A requirement as the export writes it, read from the project or from a baseline's snapshots. */
type ExportedRequirement = {
  requirementId: number;
  typeId: number;
  displayId: string | null;
  name: string;
  description: string;
  parentFolderId: number | null;
  attributes: Record<string, string>;
  linkedIds: number[];
  attachments: { uuid_file_name: string; original_file_name: string }[];
};

/** A file the archive carries beside the .reqif. */
export type ExportedFile = { archivePath: string; open: () => Promise<Readable> };

/** What was asked, checked: the project's folders in scope and the baseline. */
type Scope = { projectId: number; folderIds: Set<number> | null; baselineId: number | null; includeAttachments: boolean };

/** Checks the request (a folder of the project, a baseline of the project) before a job is started. */
export async function checkReqifExportRequest(deps: ServiceDeps, actor: Actor, request: ReqifExportRequest): Promise<void> {
  if (request.folder_id !== null) {
    const folder = await findFolder(deps.db, actor.tenantId, request.folder_id);
    if (!folder || folder.project_id !== request.atlassian_project_id) {
      throw fieldError("folder_id", "The folder does not exist in this project");
    }
  }
  if (request.baseline_id !== null) {
    const baseline = await findBaseline(deps.db, actor.tenantId, request.baseline_id);
    if (!baseline || baseline.project_id !== request.atlassian_project_id) {
      throw fieldError("baseline_id", "The baseline does not exist in this project");
    }
  }
}

/**
 * A project, a folder with its subtree or a baseline as ReqIF 1.2: one specification holding the
 * folders as the hierarchy (each folder a spec object with its ReqIF.ChapterName, which is how
 * tools write chapter headings), a spec object type per requirement type with ReqIF.Name,
 * ReqIF.ForeignID, ReqIF.Text and the project's custom fields (select fields as enumerations),
 * and the links as spec relations. Identifiers are stable: a requirement an import created keeps
 * the identifier it came with, any other is named by its site and id, so a receiving tool updates
 * what it received before. Streamed in pages; what stays in memory per requirement is its id,
 * folder and links. `files` is filled (as the text is written) with the attachments to archive.
 */
export async function* reqifExportChunks(
  deps: ServiceDeps<"storage">,
  actor: Actor,
  request: ReqifExportRequest,
  files: ExportedFile[],
  progress: (done: number) => void = () => undefined,
  now = new Date(),
): AsyncGenerator<string> {
  const { tenantId } = actor;
  const projectId = request.atlassian_project_id;
  const scope: Scope = {
    projectId,
    folderIds: request.folder_id === null ? null : new Set(await folderSubtreeIds(deps.db, tenantId, request.folder_id)),
    baselineId: request.baseline_id,
    includeAttachments: request.include_attachments,
  };
  const site = `rmcloud-${tenantId}`;
  const ids = {
    string: `${site}-datatype-text`,
    xhtml: `${site}-datatype-rich-text`,
    enumeration: (field: number) => `${site}-field-${field}-options`,
    option: (option: number) => `${site}-option-${option}`,
    folderType: `${site}-folder-type`,
    chapterName: `${site}-folder-type-chapter-name`,
    type: (type: number) => `${site}-type-${type}`,
    definition: (type: number, what: string) => `${site}-type-${type}-${what}`,
    folder: (folder: number) => `${site}-folder-${folder}`,
    hierarchy: (what: string) => `${site}-hierarchy-${what}`,
    relationType: `${site}-link`,
    relation: (low: number, high: number) => `${site}-link-${low}-${high}`,
    specificationType: `${site}-specification-type`,
    specification: `${site}-specification-${projectId}${request.folder_id === null ? "" : `-folder-${request.folder_id}`}`,
  };
  const lastChange = now.toISOString();
  const types = await listRequirementTypes(deps.db, tenantId);
  const fields = await listAttributes(deps.db, tenantId, projectId);
  const allFolders = await projectFolders(deps.db, tenantId, projectId);
  const folders = allFolders.filter((folder) => scope.folderIds === null || scope.folderIds.has(folder.folder_id));

  yield `<?xml version="1.0" encoding="UTF-8"?>\n<REQ-IF xmlns="${REQIF_NAMESPACE}" xmlns:xhtml="${XHTML_NAMESPACE}">\n`;
  yield element(
    "THE-HEADER",
    {},
    element(
      "REQ-IF-HEADER",
      { IDENTIFIER: `${site}-export-${now.getTime()}` },
      [
        element("CREATION-TIME", {}, lastChange),
        element("REQ-IF-TOOL-ID", {}, TOOL),
        element("REQ-IF-VERSION", {}, "1.0"),
        element("SOURCE-TOOL-ID", {}, TOOL),
        element("TITLE", {}, xml(`Requirements of project ${projectId}`)),
      ].join(""),
    ),
  );
  yield "\n<CORE-CONTENT><REQ-IF-CONTENT>\n";

  yield element(
    "DATATYPES",
    {},
    [
      element("DATATYPE-DEFINITION-STRING", {
        IDENTIFIER: ids.string,
        "LAST-CHANGE": lastChange,
        "LONG-NAME": "Text",
        "MAX-LENGTH": String(STRING_MAX_LENGTH),
      }),
      element("DATATYPE-DEFINITION-XHTML", { IDENTIFIER: ids.xhtml, "LAST-CHANGE": lastChange, "LONG-NAME": "Rich text" }),
      ...fields
        .filter((field) => field.type === "select")
        .map((field) =>
          element(
            "DATATYPE-DEFINITION-ENUMERATION",
            { IDENTIFIER: ids.enumeration(field.attribute_id), "LAST-CHANGE": lastChange, "LONG-NAME": field.name },
            element(
              "SPECIFIED-VALUES",
              {},
              field.options
                .map((option, index) =>
                  element(
                    "ENUM-VALUE",
                    { IDENTIFIER: ids.option(option.attribute_option_id), "LAST-CHANGE": lastChange, "LONG-NAME": option.name },
                    element("PROPERTIES", {}, element("EMBEDDED-VALUE", { KEY: String(index), "OTHER-CONTENT": "" })),
                  ),
                )
                .join(""),
            ),
          ),
        ),
    ].join("\n"),
  );
  yield "\n";

  const stringDefinition = (identifier: string, longName: string) =>
    element(
      "ATTRIBUTE-DEFINITION-STRING",
      { IDENTIFIER: identifier, "LAST-CHANGE": lastChange, "LONG-NAME": longName },
      ref("TYPE", "DATATYPE-DEFINITION-STRING-REF", ids.string),
    );
  const fieldDefinition = (type: RequirementTypeRow, field: Attribute) =>
    field.type === "select"
      ? element(
          "ATTRIBUTE-DEFINITION-ENUMERATION",
          {
            IDENTIFIER: ids.definition(type.requirement_type_id, `field-${field.attribute_id}`),
            "LAST-CHANGE": lastChange,
            "LONG-NAME": field.name,
            "MULTI-VALUED": "false",
          },
          ref("TYPE", "DATATYPE-DEFINITION-ENUMERATION-REF", ids.enumeration(field.attribute_id)),
        )
      : stringDefinition(ids.definition(type.requirement_type_id, `field-${field.attribute_id}`), field.name);
  yield element(
    "SPEC-TYPES",
    {},
    [
      element(
        "SPEC-OBJECT-TYPE",
        { IDENTIFIER: ids.folderType, "LAST-CHANGE": lastChange, "LONG-NAME": "Folder" },
        element("SPEC-ATTRIBUTES", {}, stringDefinition(ids.chapterName, "ReqIF.ChapterName")),
      ),
      ...types.map((type) =>
        element(
          "SPEC-OBJECT-TYPE",
          { IDENTIFIER: ids.type(type.requirement_type_id), "LAST-CHANGE": lastChange, "LONG-NAME": type.name },
          element(
            "SPEC-ATTRIBUTES",
            {},
            [
              stringDefinition(ids.definition(type.requirement_type_id, "name"), "ReqIF.Name"),
              stringDefinition(ids.definition(type.requirement_type_id, "foreign-id"), "ReqIF.ForeignID"),
              element(
                "ATTRIBUTE-DEFINITION-XHTML",
                { IDENTIFIER: ids.definition(type.requirement_type_id, "text"), "LAST-CHANGE": lastChange, "LONG-NAME": "ReqIF.Text" },
                ref("TYPE", "DATATYPE-DEFINITION-XHTML-REF", ids.xhtml),
              ),
              ...fields.map((field) => fieldDefinition(type, field)),
            ].join(""),
          ),
        ),
      ),
      element("SPEC-RELATION-TYPE", { IDENTIFIER: ids.relationType, "LAST-CHANGE": lastChange, "LONG-NAME": "Linked requirement" }),
      element("SPECIFICATION-TYPE", { IDENTIFIER: ids.specificationType, "LAST-CHANGE": lastChange, "LONG-NAME": "Requirements" }),
    ].join("\n"),
  );
  yield "\n<SPEC-OBJECTS>\n";

  const stringValue = (definition: string, value: string) =>
    element("ATTRIBUTE-VALUE-STRING", { "THE-VALUE": value }, ref("DEFINITION", "ATTRIBUTE-DEFINITION-STRING-REF", definition));
  for (const folder of folders) {
    yield element(
      "SPEC-OBJECT",
      { IDENTIFIER: ids.folder(folder.folder_id), "LAST-CHANGE": lastChange },
      element("VALUES", {}, stringValue(ids.chapterName, folder.name)) + ref("TYPE", "SPEC-OBJECT-TYPE-REF", ids.folderType),
    );
    yield "\n";
  }

  /** Per requirement only what the relations and the hierarchy need. */
  const written: { requirementId: number; objectId: string; parentFolderId: number | null; linkedIds: number[] }[] = [];
  for await (const page of exportedPages(deps, actor, scope)) {
    const imported = await reqifIdentifiersOfRequirements(
      deps.db,
      tenantId,
      projectId,
      page.map((requirement) => requirement.requirementId),
    );
    for (const requirement of page) {
      const importedId = imported.get(requirement.requirementId);
      const objectId = importedId !== undefined && isXmlId(importedId) ? importedId : `${site}-requirement-${requirement.requirementId}`;
      const typeId = requirement.typeId;
      const values = [stringValue(ids.definition(typeId, "name"), requirement.name)];
      if (requirement.displayId) values.push(stringValue(ids.definition(typeId, "foreign-id"), requirement.displayId));
      const embedded = scope.includeAttachments ? requirement.attachments : [];
      const objects = embedded.map((attachment) => {
        const archivePath = `files/${attachment.uuid_file_name}/${path.basename(attachment.original_file_name)}`;
        files.push({
          archivePath,
          open: () => deps.storage.getObject(storageKey(tenantId, "attachments", attachment.uuid_file_name)),
        });
        return `<xhtml:object data="${xml(archivePath)}" type="application/octet-stream">${xml(attachment.original_file_name)}</xhtml:object>`;
      });
      if (requirement.description.trim() !== "" || objects.length > 0) {
        const trailing = objects.length > 0 ? `<xhtml:p>${objects.join(" ")}</xhtml:p>` : "";
        values.push(
          element(
            "ATTRIBUTE-VALUE-XHTML",
            {},
            ref("DEFINITION", "ATTRIBUTE-DEFINITION-XHTML-REF", ids.definition(typeId, "text")) +
              element("THE-VALUE", {}, descriptionAsXhtml(requirement.description, trailing)),
          ),
        );
      }
      for (const field of fields) {
        const value = requirement.attributes[String(field.attribute_id)];
        if (value === undefined || value === "") continue;
        const definition = ids.definition(typeId, `field-${field.attribute_id}`);
        if (field.type === "string") {
          values.push(stringValue(definition, value));
        } else if (field.options.some((option) => String(option.attribute_option_id) === value)) {
          values.push(
            element(
              "ATTRIBUTE-VALUE-ENUMERATION",
              {},
              ref("DEFINITION", "ATTRIBUTE-DEFINITION-ENUMERATION-REF", definition) +
                element("VALUES", {}, `<ENUM-VALUE-REF>${xml(ids.option(Number(value)))}</ENUM-VALUE-REF>`),
            ),
          );
        }
      }
      yield element(
        "SPEC-OBJECT",
        { IDENTIFIER: objectId, "LAST-CHANGE": lastChange },
        element("VALUES", {}, values.join("")) + ref("TYPE", "SPEC-OBJECT-TYPE-REF", ids.type(typeId)),
      );
      yield "\n";
      written.push({
        requirementId: requirement.requirementId,
        objectId,
        parentFolderId: requirement.parentFolderId,
        linkedIds: requirement.linkedIds,
      });
    }
    progress(written.length);
  }
  yield "</SPEC-OBJECTS>\n<SPEC-RELATIONS>\n";

  const objectOf = new Map(written.map((requirement) => [requirement.requirementId, requirement.objectId]));
  for (const requirement of written) {
    // A link is stored once and undirected: written once, from the lower id to the higher.
    for (const linkedId of requirement.linkedIds) {
      const target = objectOf.get(linkedId);
      if (linkedId < requirement.requirementId || target === undefined) continue;
      yield element(
        "SPEC-RELATION",
        { IDENTIFIER: ids.relation(requirement.requirementId, linkedId), "LAST-CHANGE": lastChange },
        ref("SOURCE", "SPEC-OBJECT-REF", requirement.objectId) +
          ref("TARGET", "SPEC-OBJECT-REF", target) +
          ref("TYPE", "SPEC-RELATION-TYPE-REF", ids.relationType),
      );
      yield "\n";
    }
  }
  yield "</SPEC-RELATIONS>\n<SPECIFICATIONS>\n";

  // The hierarchy: each folder's subfolders (by name, as the tree shows them), then its requirements (by id).
  const root = request.folder_id;
  const childFolders = groupBy(
    [...folders].sort((a, b) => a.name.localeCompare(b.name) || a.folder_id - b.folder_id),
    (folder) => (folder.folder_id === root ? null : folder.parent_folder_id),
  );
  const exportedFolders = new Set(folders.map((folder) => folder.folder_id));
  const requirementsIn = groupBy(written, (requirement) =>
    requirement.parentFolderId !== null && exportedFolders.has(requirement.parentFolderId) ? requirement.parentFolderId : null,
  );
  const hierarchyOf = (parent: number | null): string =>
    [
      ...(childFolders.get(parent) ?? []).map((folder) => {
        const inner = hierarchyOf(folder.folder_id);
        return element(
          "SPEC-HIERARCHY",
          { IDENTIFIER: ids.hierarchy(`folder-${folder.folder_id}`), "LAST-CHANGE": lastChange },
          ref("OBJECT", "SPEC-OBJECT-REF", ids.folder(folder.folder_id)) + (inner === "" ? "" : element("CHILDREN", {}, inner)),
        );
      }),
      ...(requirementsIn.get(parent) ?? []).map((requirement) =>
        element(
          "SPEC-HIERARCHY",
          { IDENTIFIER: ids.hierarchy(`requirement-${requirement.requirementId}`), "LAST-CHANGE": lastChange },
          ref("OBJECT", "SPEC-OBJECT-REF", requirement.objectId),
        ),
      ),
    ].join("\n");
  const top = hierarchyOf(null);
  yield element(
    "SPECIFICATION",
    { IDENTIFIER: ids.specification, "LAST-CHANGE": lastChange, "LONG-NAME": `Requirements of project ${projectId}` },
    ref("TYPE", "SPECIFICATION-TYPE-REF", ids.specificationType) + (top === "" ? "" : element("CHILDREN", {}, top)),
  );
  yield "\n</SPECIFICATIONS>\n</REQ-IF-CONTENT></CORE-CONTENT>\n</REQ-IF>\n";
}

function groupBy<T>(items: T[], keyOf: (item: T) => number | null): Map<number | null, T[]> {
  const groups = new Map<number | null, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The requirements in scope, a page at a time: the project's now, or what the baseline froze. */
async function* exportedPages(deps: ServiceDeps, actor: Actor, scope: Scope): AsyncGenerator<ExportedRequirement[]> {
  const inScope = (folderId: number | null) => scope.folderIds === null || (folderId !== null && scope.folderIds.has(folderId));
  if (scope.baselineId !== null) {
    for (let offset = 0; ; offset += PAGE) {
      const revisions = await pageBaselineRevisions(deps.db, actor.tenantId, scope.baselineId, { offset, limit: PAGE });
      if (revisions.length === 0) return;
      yield revisions
        .map(({ snapshot }) => ({
          requirementId: snapshot.requirement_id,
          typeId: snapshot.requirement_type.requirement_type_id,
          displayId: snapshot.display_id,
          name: snapshot.name,
          description: snapshot.description,
          parentFolderId: snapshot.parent_folder_id,
          attributes: snapshot.attributes,
          linkedIds: snapshot.linked_requirements.map((linked) => linked.requirement_id),
          attachments: snapshot.attachments,
        }))
        .filter((requirement) => inScope(requirement.parentFolderId));
    }
  }
  for (let afterId = 0; ; ) {
    const rows = await exportPage(deps.db, actor.tenantId, scope.projectId, afterId, PAGE);
    const last = rows[rows.length - 1];
    if (!last) return;
    afterId = last.requirement_id;
    const page = rows.filter((row) => inScope(row.parent_folder_id));
    const attachments = scope.includeAttachments
      ? await attachmentsOfRequirements(
          deps.db,
          actor.tenantId,
          page.map((row) => row.requirement_id),
        )
      : new Map<number, { uuid_file_name: string; original_file_name: string }[]>();
    yield page.map((row) => ({
      requirementId: row.requirement_id,
      typeId: row.requirement_type_id,
      displayId: row.display_id,
      name: row.name,
      description: row.description,
      parentFolderId: row.parent_folder_id,
      attributes: row.attributes,
      linkedIds: row.linked.map((linked) => linked.requirement_id),
      attachments: attachments.get(row.requirement_id) ?? [],
    }));
  }
}
