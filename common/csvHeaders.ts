/**
 * Which column of an import file feeds which requirement field (spec section 5). Shared by the
 * import dialog (it shows the mapping) and the import job (it applies it), so both agree.
 */

type KnownField = "name" | "id" | "description" | "components" | "status" | "folder";

/** Header names by field, compared case-insensitively; Jira's own export names come second. */
const KNOWN_HEADERS: Record<KnownField, string[]> = {
  name: ["name", "summary"],
  id: ["id", "issue key"],
  description: ["description"],
  components: ["component/s", "components"],
  status: ["status"],
  folder: ["folder"],
};

/**
 * Header names of the columns our export writes, in that order; custom fields come between the
 * linked requirements and the folder. Suspect links (issue 34) come last, after the folder: the
 * import reads no such column, so files exported before it still line up.
 */
export const EXPORT_HEADERS = {
  id: "ID",
  name: "Name",
  description: "Description",
  type: "Type",
  status: "Status",
  assignee: "Assignee",
  components: "Component/s",
  linkedIssues: "Linked issues",
  linkedRequirements: "Linked requirements",
  folder: "Folder",
  suspectLinks: "Suspect links",
} as const;

/** Between the folder names of a Folder cell, "Parent / Child": the export writes it, the import splits on it. */
export const FOLDER_PATH_SEPARATOR = " / ";

type NamedField = { attribute_id: number; name: string };

export type HeaderMapping = {
  /** Column index of each single-valued field (the first column of that name counts). */
  name?: number;
  id?: number;
  description?: number;
  status?: number;
  /** The folder path below the import's target ("Parent / Child"). */
  folder?: number;
  /** Every Component/s column: Jira writes one per component. */
  components: number[];
  /** Custom field columns by attribute id. */
  attributes: { attribute_id: number; column: number }[];
  /** Headers that map to nothing, each with all its columns (Jira repeats some, e.g. Sprint). */
  additional: { header: string; columns: number[] }[];
};

const normalise = (header: string) => header.trim().toLowerCase();

/** Jira writes its custom fields as "Custom field (Business Value)": that column also fills a field named "Business Value". */
const jiraCustomFieldName = (header: string) => /^custom field \((.+)\)$/i.exec(header.trim())?.[1]?.trim();

export function mapHeaders(headers: string[], customFields: NamedField[]): HeaderMapping {
  const mapping: HeaderMapping = { components: [], attributes: [], additional: [] };
  const fieldsByName = new Map(customFields.map((field) => [normalise(field.name), field.attribute_id]));
  const mappedFields = new Set<number>();
  // Name and ID take their first synonym present: a file with both Name and Summary uses Name.
  const single: Exclude<KnownField, "components">[] = ["name", "id", "description", "status", "folder"];
  for (const field of single) {
    for (const synonym of KNOWN_HEADERS[field]) {
      const column = headers.findIndex((header) => normalise(header) === synonym);
      if (column >= 0) {
        mapping[field] = column;
        break;
      }
    }
  }
  const used = new Set(single.flatMap((field) => (mapping[field] === undefined ? [] : [mapping[field]])));
  const usedHeaders = new Set([...used].map((column) => normalise(headers[column] ?? "")));
  headers.forEach((header, column) => {
    if (used.has(column)) return;
    const key = normalise(header);
    if (key === "") return;
    if (KNOWN_HEADERS.components.includes(key)) {
      mapping.components.push(column);
      return;
    }
    const attributeId = fieldsByName.get(key) ?? fieldsByName.get(normalise(jiraCustomFieldName(header) ?? ""));
    if (attributeId !== undefined && !mappedFields.has(attributeId)) {
      mappedFields.add(attributeId);
      mapping.attributes.push({ attribute_id: attributeId, column });
      return;
    }
    // A repeated single-valued header or mapped field is not a second value of it.
    if (usedHeaders.has(key) || attributeId !== undefined) return;
    const existing = mapping.additional.find((entry) => normalise(entry.header) === key);
    if (existing) existing.columns.push(column);
    else mapping.additional.push({ header: header.trim(), columns: [column] });
  });
  return mapping;
}

/**
 * OWASP's CSV injection rule: a cell that begins with =, +, -, @, tab or carriage return is
 * prefixed with a single quote so spreadsheets show it as text. A cell that already begins with
 * quotes before such a character gets one more, so `fromSpreadsheetSafe` restores every text exactly.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

export function toSpreadsheetSafe(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

export function fromSpreadsheetSafe(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}
