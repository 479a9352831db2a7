import { MAX_ATTRIBUTE_OPTION_LENGTH, MAX_ATTRIBUTE_OPTIONS, MAX_ATTRIBUTE_VALUE_LENGTH } from "../../../common/schemas/attribute.js";
import { DISPLAY_ID_MAX, REQUIREMENT_NAME_MAX } from "../../../common/schemas/requirement.js";
import { REQUIREMENT_TYPE_NAME_MAX } from "../../../common/schemas/requirementType.js";
import {
  type ReqifAttributeDefinition,
  type ReqifDocument,
  type ReqifSpecObject,
  type ReqifValue,
  STANDARD_ATTRIBUTES,
} from "./reqifDocument.js";
import { textToHtml } from "./reqifXhtml.js";

/** The requirement type objects whose type the file leaves out are imported as. */
export const UNTYPED_OBJECTS_TYPE = "ReqIF object";
/** Joins the values of a multi-value enumeration in a text field. */
export const MULTI_VALUE_SEPARATOR = ", ";

type StandardRole = keyof typeof STANDARD_ATTRIBUTES;

export function standardRoleOf(definition: ReqifAttributeDefinition | undefined): StandardRole | undefined {
  if (!definition) return undefined;
  const name = definition.longName.trim().toLowerCase();
  for (const role of Object.keys(STANDARD_ATTRIBUTES) as StandardRole[]) {
    if ((STANDARD_ATTRIBUTES[role] as readonly string[]).includes(name)) return role;
  }
  return undefined;
}

/** The custom field an attribute definition becomes: a select for a single-value enumeration that fits one, else text. */
export type FieldPlan = { name: string; type: "string" } | { name: string; type: "select"; options: string[] };

export function fieldPlanOf(definition: ReqifAttributeDefinition): FieldPlan {
  const name = definition.longName.trim().slice(0, 255) || definition.identifier;
  const options = definition.datatypeDefinition?.values.map((value) => value.longName.trim()) ?? [];
  const fitsSelect =
    definition.datatype === "ENUMERATION" &&
    !definition.multiValued &&
    options.length >= 1 &&
    options.length <= MAX_ATTRIBUTE_OPTIONS &&
    options.every((option) => option.length >= 1 && option.length <= MAX_ATTRIBUTE_OPTION_LENGTH) &&
    new Set(options.map((option) => option.toLowerCase())).size === options.length;
  return fitsSelect ? { name, type: "select", options } : { name, type: "string" };
}

/** What one spec object becomes, before the project's fields are known: field values by field name. */
export type ObjectContent = {
  name: string;
  /** Safe HTML. */
  description: string;
  displayId: string | null;
  /** Field name to its text (a select's option name). */
  fields: Map<string, string>;
  /** Values no field takes, as HTML paragraphs '<name>: <value>' for the end of the description. */
  extra: string[];
};

/** A value as text: enumeration values by their names (joined), XHTML as its text. */
function textOfValue(document: ReqifDocument, value: ReqifValue): string {
  if (!value.enumValues) return value.text.trim();
  const known = document.attributeDefinitions.get(value.definition)?.datatypeDefinition?.values ?? [];
  return value.enumValues
    .map((ref) => known.find((candidate) => candidate.identifier === ref)?.longName ?? ref)
    .join(MULTI_VALUE_SEPARATOR);
}

const firstLine = (text: string) =>
  text
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim() ?? "";

/**
 * Spec section 3's fields of the requirement a spec object becomes. Name: ReqIF.Name, else
 * ReqIF.ChapterName, else the object's LONG-NAME, else the first line of its text, else its
 * custom ID or identifier (cut at 255 characters). Description: ReqIF.Text and ReqIF.Description
 * as safe HTML. Custom ID: ReqIF.ForeignID. Every other value goes to the field of its
 * definition's name; values whose definition the file leaves out are kept as paragraphs
 * '<definition identifier>: <value>' of the description, as are values longer than a field holds.
 */
export function objectContentOf(document: ReqifDocument, object: ReqifSpecObject): ObjectContent {
  const names: Partial<Record<"name" | "chapter", string>> = {};
  const descriptions: string[] = [];
  const plainTexts: string[] = [];
  const fields = new Map<string, string>();
  const extra: string[] = [];
  let displayId: string | null = null;
  for (const value of object.values) {
    const definition = document.attributeDefinitions.get(value.definition);
    const text = textOfValue(document, value);
    if (text === "" && !value.html) continue;
    const role = standardRoleOf(definition);
    if (role === "name") {
      const key = definition?.longName.trim().toLowerCase() === "reqif.name" ? "name" : "chapter";
      names[key] ??= firstLine(text);
    } else if (role === "description") {
      descriptions.push(value.html ?? textToHtml(text));
      plainTexts.push(text);
    } else if (role === "foreignId" && text.length <= DISPLAY_ID_MAX) {
      displayId = text;
    } else {
      const fieldName = definition ? fieldPlanOf(definition).name : undefined;
      if (fieldName !== undefined && text.length <= MAX_ATTRIBUTE_VALUE_LENGTH && !fields.has(fieldName)) {
        fields.set(fieldName, text);
      } else {
        const label = fieldName ?? value.definition;
        extra.push(value.html ? `${textToHtml(`${label}:`)}${value.html}` : textToHtml(`${label}: ${text}`));
      }
    }
  }
  const name = names.name || names.chapter || object.longName?.trim() || firstLine(plainTexts.join("\n")) || displayId || object.identifier;
  return {
    name: name.length > REQUIREMENT_NAME_MAX ? `${name.slice(0, REQUIREMENT_NAME_MAX - 1)}…` : name,
    description: descriptions.join(""),
    displayId,
    fields,
    extra,
  };
}

/**
 * A chapter heading: an object whose only value is its ReqIF.ChapterName (as DOORS and ReqIF
 * Studio write headings, and as the export writes folders). It becomes a folder, nothing more.
 */
export function isChapterHeading(document: ReqifDocument, object: ReqifSpecObject): boolean {
  const filled = object.values.filter((value) => textOfValue(document, value) !== "");
  return (
    filled.length > 0 &&
    filled.every((value) => document.attributeDefinitions.get(value.definition)?.longName.trim().toLowerCase() === "reqif.chaptername")
  );
}

export const typeNameFor = (longName: string) => longName.trim().slice(0, REQUIREMENT_TYPE_NAME_MAX) || UNTYPED_OBJECTS_TYPE;
