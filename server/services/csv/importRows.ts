import { FOLDER_PATH_SEPARATOR, fromSpreadsheetSafe, type HeaderMapping } from "../../../common/csvHeaders.js";
import { type Attribute, MAX_ATTRIBUTE_VALUE_LENGTH } from "../../../common/schemas/attribute.js";
import type { ImportLeavableColumn } from "../../../common/schemas/csvImport.js";
import type { HostComponent, HostStatus } from "../../../common/importHostLists.js";
import { folderNameSchema } from "../../../common/schemas/folder.js";
import { DISPLAY_ID_MAX, REQUIREMENT_NAME_MAX } from "../../../common/schemas/requirement.js";

const DESCRIPTION_MAX = 100_000;

/** Everything a row is checked against, built once per import. */
export type RowRules = {
  mapping: HeaderMapping;
  /** The chosen requirement type's prefix: an ID written as our export writes it ("SYS-12") loses it again. */
  prefix: string;
  components: Map<string, HostComponent>;
  statuses: Map<string, HostStatus>;
  fields: Map<number, Pick<Attribute, "attribute_id" | "name" | "type" | "options">>;
  /** The additional headers the user kept, with their columns: appended to the description. */
  kept: { header: string; columns: number[] }[];
  assignBasedOnComponent: boolean;
  /** A component or status name the project lacks is dropped from its row rather than refusing it. */
  leaveOutUnknownNames: boolean;
};

export type ImportedRow = {
  name: string;
  displayId: string | null;
  description: string;
  statusId: string | null;
  assignedTo: string | null;
  componentIds: string[];
  /** attribute_id to stored value (a select field's option id as text). */
  attributes: Record<string, string>;
  /** Folder names from the import's target down to the requirement's folder; empty for the target itself. */
  folderPath: string[];
};

/** A refused row keeps its custom ID: a duplicate of it is one more problem of the file to report. */
type RowReading = { row: ImportedRow; errors: [] } | { row?: undefined; displayId: string | null; errors: string[] };

const byName = <T extends { name: string }>(items: T[]) => new Map(items.map((item) => [item.name.trim().toLowerCase(), item]));

export function buildRowRules(input: {
  mapping: HeaderMapping;
  prefix: string;
  components: HostComponent[];
  statuses: HostStatus[];
  fields: Pick<Attribute, "attribute_id" | "name" | "type" | "options">[];
  additionalHeaders: string[];
  assignBasedOnComponent: boolean;
  leftOutColumns: readonly ImportLeavableColumn[];
  leaveOutUnknownNames: boolean;
}): RowRules {
  const wanted = new Set(input.additionalHeaders.map((header) => header.trim().toLowerCase()));
  const leftOut = new Set(input.leftOutColumns);
  return {
    mapping: {
      ...input.mapping,
      components: leftOut.has("components") ? [] : input.mapping.components,
      status: leftOut.has("status") ? undefined : input.mapping.status,
    },
    prefix: input.prefix,
    components: byName(input.components),
    statuses: byName(input.statuses),
    fields: new Map(input.fields.map((field) => [field.attribute_id, field])),
    kept: input.mapping.additional.filter((entry) => wanted.has(entry.header.toLowerCase())),
    assignBasedOnComponent: input.assignBasedOnComponent,
    leaveOutUnknownNames: input.leaveOutUnknownNames,
  };
}

const tooLong = (field: string, max: number) => `${field}: enter no more than ${max} characters`;

/** One data row of the file, checked and turned into what is stored; every problem of the row at once. */
export function readRow(rawCells: string[], rules: RowRules): RowReading {
  let holdsNul = false;
  const cell = (column: number | undefined) => {
    const value = column === undefined ? "" : fromSpreadsheetSafe(rawCells[column] ?? "");
    // PostgreSQL cannot store U+0000: refused with its row, as the API refuses it in a request.
    if (value.includes("\u0000")) holdsNul = true;
    return value;
  };
  const { mapping } = rules;
  const errors: string[] = [];

  const name = cell(mapping.name).trim();
  if (name === "") errors.push("Name is required");
  else if (name.length > REQUIREMENT_NAME_MAX) errors.push(tooLong("Name", REQUIREMENT_NAME_MAX));

  const id = withoutPrefix(cell(mapping.id).trim(), rules.prefix);
  if (id.length > DISPLAY_ID_MAX) errors.push(tooLong("ID", DISPLAY_ID_MAX));

  const kept = rules.kept.flatMap(({ header, columns }) =>
    columns
      .map((column) => cell(column).trim())
      .filter((value) => value !== "")
      .map((value) => `${header}: ${value}`),
  );
  const ownDescription = cell(mapping.description);
  const description = kept.length === 0 ? ownDescription : [ownDescription, kept.join("\n")].filter(Boolean).join("\n\n");
  if (description.length > DESCRIPTION_MAX) errors.push(tooLong("Description", DESCRIPTION_MAX));

  const componentIds: string[] = [];
  let assignedTo: string | null = null;
  for (const column of mapping.components) {
    const componentName = cell(column).trim();
    if (componentName === "") continue;
    const component = rules.components.get(componentName.toLowerCase());
    if (!component) {
      if (!rules.leaveOutUnknownNames) errors.push(`Component/s: "${componentName}" is not a component of this project`);
      continue;
    }
    if (!componentIds.includes(component.id)) componentIds.push(component.id);
    if (rules.assignBasedOnComponent && assignedTo === null) assignedTo = component.assigneeAccountId;
  }

  const statusName = cell(mapping.status).trim();
  const status = statusName === "" ? undefined : rules.statuses.get(statusName.toLowerCase());
  if (statusName !== "" && !status && !rules.leaveOutUnknownNames) errors.push(`Status: "${statusName}" is not a status of this project`);

  const attributes: Record<string, string> = {};
  for (const { attribute_id, column } of mapping.attributes) {
    const field = rules.fields.get(attribute_id);
    const value = cell(column).trim();
    if (!field || value === "") continue;
    if (field.type === "select") {
      const option = field.options.find((candidate) => candidate.name.trim().toLowerCase() === value.toLowerCase());
      if (option) attributes[attribute_id] = String(option.attribute_option_id);
      else errors.push(`${field.name}: "${value}" is not one of the field's options`);
    } else if (value.length > MAX_ATTRIBUTE_VALUE_LENGTH) {
      errors.push(tooLong(field.name, MAX_ATTRIBUTE_VALUE_LENGTH));
    } else {
      attributes[attribute_id] = value;
    }
  }

  const folderPath = readFolderPath(cell(mapping.folder), errors);
  if (holdsNul) errors.push("A cell contains the NUL character (U+0000), which cannot be stored");

  if (errors.length > 0) return { displayId: id === "" ? null : id, errors };
  return {
    row: {
      name,
      displayId: id === "" ? null : id,
      description,
      statusId: status?.id ?? null,
      assignedTo,
      componentIds,
      attributes,
      folderPath,
    },
    errors: [],
  };
}

/** "Parent / Child" split as the export joined it; each name must be one a folder created in the tree could have. */
function readFolderPath(path: string, errors: string[]): string[] {
  if (path.trim() === "") return [];
  const names = path.split(FOLDER_PATH_SEPARATOR).map((name) => name.trim());
  for (const name of names) {
    const checked = folderNameSchema.safeParse(name);
    if (checked.success) continue;
    errors.push(name === "" ? `Folder: "${path}" has an empty folder name` : `Folder: "${name}": ${checked.error.issues[0]?.message}`);
    break;
  }
  return names;
}

/** Our export writes the ID as the type prefix, a hyphen and the custom ID; importing it back keeps the custom ID only. */
function withoutPrefix(id: string, prefix: string): string {
  const head = `${prefix}-`;
  return prefix !== "" && id.length > head.length && id.toLowerCase().startsWith(head.toLowerCase()) ? id.slice(head.length) : id;
}
