import { SaxesParser, type SaxesTagNS } from "saxes";
import {
  REQIF_DATATYPES,
  type ReqifAttributeDefinition,
  type ReqifDatatype,
  type ReqifDatatypeDefinition,
  type ReqifDocument,
  type ReqifHierarchy,
  type ReqifSpecObject,
  type ReqifValue,
} from "./reqifDocument.js";
import { objectFilesOf, type XmlNode, xhtmlToSafeHtml, xhtmlToText } from "./reqifXhtml.js";

/** A file the import cannot read, with the line or element that says why; nothing is written. */
export class ReqifFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReqifFileError";
  }
}

/** The sections whose children the reader keeps, one element (with its subtree) at a time. */
const SECTIONS = new Set(["DATATYPES", "SPEC-TYPES", "SPEC-OBJECTS", "SPEC-RELATIONS", "SPECIFICATIONS", "THE-HEADER"]);
/** Deeper than any real file nests (a spec hierarchy of 200 levels); bounds the reader's stack. */
const MAX_DEPTH = 256;
/** Text of one kept element (a spec object with its values, a whole specification's tree): bounds the reader's memory. */
const MAX_ELEMENT_TEXT = 10_000_000;

const fail = (line: number, message: string): never => {
  throw new ReqifFileError(`Line ${line}: ${message}`);
};

const children = (node: XmlNode, name?: string): XmlNode[] =>
  node.content.filter((item): item is XmlNode => typeof item !== "string" && (name === undefined || item.name === name));
const child = (node: XmlNode, name: string) => children(node, name)[0];
const textOf = (node: XmlNode | undefined) =>
  node
    ? node.content
        .filter((item): item is string => typeof item === "string")
        .join("")
        .trim()
    : "";
/** The text of a `<X><Y-REF>id</Y-REF></X>` reference, whatever Y is. */
const refIn = (node: XmlNode, name: string): string | undefined => {
  const holder = child(node, name);
  const ref = holder && children(holder)[0];
  const id = ref ? textOf(ref) : "";
  return id === "" ? undefined : id;
};

function identifierOf(node: XmlNode): string {
  const identifier = node.attributes.IDENTIFIER?.trim();
  if (!identifier) return fail(node.line, `${node.name} has no IDENTIFIER`);
  return identifier;
}

/** The datatype an element's name ends with (ATTRIBUTE-VALUE-XHTML: XHTML); an unknown one is refused. */
function datatypeOf(node: XmlNode, prefix: string): ReqifDatatype {
  const datatype = node.name.slice(prefix.length).replace(/-REF$/, "");
  if (!(REQIF_DATATYPES as readonly string[]).includes(datatype)) {
    fail(node.line, `unknown datatype ${node.name} (ReqIF knows ${REQIF_DATATYPES.join(", ")})`);
  }
  return datatype as ReqifDatatype;
}

/**
 * Reads a ReqIF file in one streamed pass (saxes): only one top-level element of a section is held
 * at a time as a small tree, then kept as the import's model, so memory grows with the file's
 * objects (their text and values), never with its markup. A DOCTYPE is refused outright (a ReqIF
 * file has none; it is how entity expansion and external entities get in), and so is any entity
 * but XML's own. Throws ReqifFileError naming the line.
 */
export async function readReqif(chunks: AsyncIterable<Buffer | string>): Promise<ReqifDocument> {
  const document: ReqifDocument = {
    title: undefined,
    datatypes: new Map(),
    specObjectTypes: new Map(),
    attributeDefinitions: new Map(),
    specObjects: new Map(),
    specifications: [],
    relations: [],
  };
  const parser = new SaxesParser({ xmlns: true, position: true });
  const path: string[] = [];
  /** The kept element being read, innermost last. */
  const open: XmlNode[] = [];
  let keptText = 0;
  let sawRoot = false;
  let failure: Error | undefined;

  parser.on("doctype", () => fail(parser.line, "the file declares a DOCTYPE; ReqIF files have none, and DTDs (entities) are refused"));
  parser.on("opentag", (tag: SaxesTagNS) => {
    if (!sawRoot) {
      sawRoot = true;
      if (tag.local !== "REQ-IF") fail(parser.line, `the file is not ReqIF: its root element is <${tag.name}>, not <REQ-IF>`);
    }
    if (path.length >= MAX_DEPTH) fail(parser.line, `elements nest deeper than ${MAX_DEPTH} levels`);
    const parent = path[path.length - 1];
    path.push(tag.local);
    if (open.length === 0 && !(parent !== undefined && SECTIONS.has(parent))) return;
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
      attributes[attribute.local] = attribute.value;
    }
    const node: XmlNode = { name: tag.local, attributes, content: [], line: parser.line };
    open[open.length - 1]?.content.push(node);
    open.push(node);
  });
  const addText = (text: string) => {
    const node = open[open.length - 1];
    if (!node) return;
    keptText += text.length;
    if (keptText > MAX_ELEMENT_TEXT) fail(parser.line, `${open[0]?.name} holds more than ${MAX_ELEMENT_TEXT} characters`);
    node.content.push(text);
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", () => {
    path.pop();
    const node = open.pop();
    if (node && open.length === 0) {
      keptText = 0;
      keep(document, path[path.length - 1] ?? "", node);
    }
  });
  parser.on("error", (error) => {
    const problem = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "").replace(/\.$/, "");
    throw new ReqifFileError(
      sawRoot
        ? `Line ${parser.line}: the file is not well-formed XML (${problem})`
        : `Line ${parser.line}: the file is not ReqIF, not even XML (${problem})`,
    );
  });

  const decoder = new TextDecoder("utf-8");
  try {
    for await (const chunk of chunks) {
      parser.write(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    failure = error instanceof ReqifFileError ? error : new ReqifFileError(`the file could not be read: ${(error as Error).message}`);
  }
  if (failure) throw failure;
  checkReferences(document);
  return document;
}

/** One top-level element of a section, read into the model. */
function keep(document: ReqifDocument, section: string, node: XmlNode): void {
  switch (section) {
    case "THE-HEADER": {
      const title = textOf(child(node, "TITLE"));
      if (title) document.title = title;
      return;
    }
    case "DATATYPES": {
      const datatype = datatypeOf(node, "DATATYPE-DEFINITION-");
      const values = children(child(node, "SPECIFIED-VALUES") ?? node, "ENUM-VALUE").map((value) => ({
        identifier: identifierOf(value),
        longName: value.attributes["LONG-NAME"] ?? identifierOf(value),
      }));
      const identifier = identifierOf(node);
      document.datatypes.set(identifier, { identifier, longName: node.attributes["LONG-NAME"] ?? identifier, datatype, values });
      return;
    }
    case "SPEC-TYPES": {
      const identifier = identifierOf(node);
      const definitions = children(child(node, "SPEC-ATTRIBUTES") ?? node).map((definition) => attributeDefinitionOf(document, definition));
      for (const definition of definitions) document.attributeDefinitions.set(definition.identifier, definition);
      if (node.name === "SPEC-OBJECT-TYPE") {
        document.specObjectTypes.set(identifier, {
          identifier,
          longName: node.attributes["LONG-NAME"] ?? identifier,
          attributeDefinitions: definitions,
        });
      }
      return;
    }
    case "SPEC-OBJECTS": {
      const identifier = identifierOf(node);
      const values: ReqifValue[] = [];
      const objectFiles: string[] = [];
      for (const value of children(child(node, "VALUES") ?? { name: "", attributes: {}, content: [], line: 0 })) {
        const read = attributeValueOf(value);
        values.push(read.value);
        objectFiles.push(...read.objectFiles);
      }
      const object: ReqifSpecObject = {
        identifier,
        longName: node.attributes["LONG-NAME"],
        type: refIn(node, "TYPE"),
        values,
        objectFiles,
        line: node.line,
      };
      document.specObjects.set(identifier, object);
      return;
    }
    case "SPEC-RELATIONS":
      document.relations.push({
        identifier: identifierOf(node),
        source: refIn(node, "SOURCE"),
        target: refIn(node, "TARGET"),
        line: node.line,
      });
      return;
    case "SPECIFICATIONS":
      document.specifications.push({
        identifier: identifierOf(node),
        longName: node.attributes["LONG-NAME"],
        children: hierarchyOf(node),
        line: node.line,
      });
      return;
  }
}

function attributeDefinitionOf(document: ReqifDocument, node: XmlNode): ReqifAttributeDefinition {
  const datatype = datatypeOf(node, "ATTRIBUTE-DEFINITION-");
  const identifier = identifierOf(node);
  const datatypeRef = refIn(node, "TYPE");
  return {
    identifier,
    longName: node.attributes["LONG-NAME"] ?? identifier,
    datatype,
    datatypeDefinition: datatypeRef === undefined ? undefined : document.datatypes.get(datatypeRef),
    multiValued: node.attributes["MULTI-VALUED"] === "true",
    line: node.line,
  };
}

function attributeValueOf(node: XmlNode): { value: ReqifValue; objectFiles: string[] } {
  const datatype = datatypeOf(node, "ATTRIBUTE-VALUE-");
  const definition = refIn(node, "DEFINITION");
  if (definition === undefined) return fail(node.line, `${node.name} names no attribute definition (DEFINITION)`);
  if (datatype === "XHTML") {
    const content = child(node, "THE-VALUE")?.content ?? [];
    return {
      value: { definition, datatype, text: xhtmlToText(content), html: xhtmlToSafeHtml(content), line: node.line },
      objectFiles: objectFilesOf(content),
    };
  }
  if (datatype === "ENUMERATION") {
    const enumValues = children(child(node, "VALUES") ?? node, "ENUM-VALUE-REF").map((ref) => textOf(ref));
    return { value: { definition, datatype, text: "", enumValues, line: node.line }, objectFiles: [] };
  }
  return { value: { definition, datatype, text: node.attributes["THE-VALUE"] ?? "", line: node.line }, objectFiles: [] };
}

function hierarchyOf(node: XmlNode): ReqifHierarchy[] {
  return children(child(node, "CHILDREN") ?? { name: "", attributes: {}, content: [], line: 0 }, "SPEC-HIERARCHY").map((entry) => ({
    identifier: identifierOf(entry),
    longName: entry.attributes["LONG-NAME"],
    object: refIn(entry, "OBJECT"),
    children: hierarchyOf(entry),
    line: entry.line,
  }));
}

/**
 * References the file contradicts itself on are refused: an attribute definition whose datatype
 * the file defines as another kind, and a value naming an enumeration value its (defined)
 * enumeration does not have. What a partial export merely leaves out (datatypes, types,
 * definitions, objects of other modules) is reported by the import instead.
 */
function checkReferences(document: ReqifDocument): void {
  for (const definition of document.attributeDefinitions.values()) {
    const datatype: ReqifDatatypeDefinition | undefined = definition.datatypeDefinition;
    if (datatype && datatype.datatype !== definition.datatype) {
      fail(
        definition.line,
        `attribute definition ${definition.identifier} is ${definition.datatype} but its datatype ${datatype.identifier} is ${datatype.datatype}`,
      );
    }
  }
  for (const object of document.specObjects.values()) {
    for (const value of object.values) {
      const enumeration = document.attributeDefinitions.get(value.definition)?.datatypeDefinition;
      if (!value.enumValues || !enumeration) continue;
      for (const ref of value.enumValues) {
        if (!enumeration.values.some((known) => known.identifier === ref)) {
          fail(
            value.line,
            `spec object ${object.identifier} names enumeration value ${ref}, which ${enumeration.identifier} does not define`,
          );
        }
      }
    }
  }
}
