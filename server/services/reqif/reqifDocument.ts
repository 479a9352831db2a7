/** What a ReqIF file holds, as the import reads it (ReqIF 1.2, OMG formal/16-07-01). */

export const REQIF_DATATYPES = ["BOOLEAN", "DATE", "INTEGER", "REAL", "STRING", "XHTML", "ENUMERATION"] as const;
export type ReqifDatatype = (typeof REQIF_DATATYPES)[number];

export type ReqifEnumValue = { identifier: string; longName: string };

export type ReqifDatatypeDefinition = {
  identifier: string;
  longName: string;
  datatype: ReqifDatatype;
  /** An enumeration's values, in the file's order. */
  values: ReqifEnumValue[];
};

export type ReqifAttributeDefinition = {
  identifier: string;
  longName: string;
  datatype: ReqifDatatype;
  /** The datatype definition it refers to (undefined when the file leaves it out). */
  datatypeDefinition: ReqifDatatypeDefinition | undefined;
  multiValued: boolean;
  line: number;
};

export type ReqifSpecObjectType = {
  identifier: string;
  longName: string;
  attributeDefinitions: ReqifAttributeDefinition[];
};

/** One attribute value of a spec object: plain text, sanitised XHTML, or enumeration value identifiers. */
export type ReqifValue = {
  definition: string;
  datatype: ReqifDatatype;
  /** BOOLEAN, DATE, INTEGER, REAL, STRING: THE-VALUE as written; XHTML: the value's plain text. */
  text: string;
  /** XHTML only: the value as safe HTML. */
  html?: string;
  /** ENUMERATION only: the referenced ENUM-VALUE identifiers. */
  enumValues?: string[];
  line: number;
};

export type ReqifSpecObject = {
  identifier: string;
  longName: string | undefined;
  type: string | undefined;
  values: ReqifValue[];
  /** Files of a .reqifz that its XHTML values show (xhtml:object data="..."). */
  objectFiles: string[];
  line: number;
};

export type ReqifHierarchy = {
  identifier: string;
  longName: string | undefined;
  object: string | undefined;
  children: ReqifHierarchy[];
  line: number;
};

export type ReqifSpecification = {
  identifier: string;
  longName: string | undefined;
  children: ReqifHierarchy[];
  line: number;
};

export type ReqifRelation = {
  identifier: string;
  source: string | undefined;
  target: string | undefined;
  line: number;
};

export type ReqifDocument = {
  title: string | undefined;
  datatypes: Map<string, ReqifDatatypeDefinition>;
  specObjectTypes: Map<string, ReqifSpecObjectType>;
  /** Every attribute definition of the file (of spec object, specification and relation types), by identifier. */
  attributeDefinitions: Map<string, ReqifAttributeDefinition>;
  specObjects: Map<string, ReqifSpecObject>;
  specifications: ReqifSpecification[];
  relations: ReqifRelation[];
};

/** The standard attribute names (ReqIF Implementation Guide), compared case-insensitively. */
export const STANDARD_ATTRIBUTES = {
  name: ["reqif.name", "reqif.chaptername"],
  description: ["reqif.text", "reqif.description"],
  foreignId: ["reqif.foreignid"],
} as const;

/** Every spec object a hierarchy node or its descendants show, counted once per node. */
export function countHierarchyObjects(nodes: ReqifHierarchy[]): number {
  let count = 0;
  const stack = [...nodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.object !== undefined) count += 1;
    stack.push(...node.children);
  }
  return count;
}
