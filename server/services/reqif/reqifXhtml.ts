import sanitizeHtml from "sanitize-html";
import { RICH_TEXT_LINK_SCHEMES, RICH_TEXT_TAGS } from "../../../common/richText.js";

/** An element of a ReqIF file as the reader keeps it: its local name, attributes and content in order. */
export type XmlNode = {
  name: string;
  attributes: Record<string, string>;
  content: (XmlNode | string)[];
  line: number;
};

/**
 * What an XHTML value may keep: structure (paragraphs, lists, emphasis, tables, headings, links),
 * never anything that runs (scripts, handlers, styles, frames, forms) or loads (images, objects).
 */
export const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ["href"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan"] },
  allowedSchemes: [...RICH_TEXT_LINK_SCHEMES],
  disallowedTagsMode: "discard",
};

const BLOCKS = new Set(["p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "br", "hr", "table", "ul", "ol"]);

/** Text as HTML text (what the sanitiser writes for it). */
export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text: string) => escapeHtml(text).replace(/"/g, "&quot;");

/** The name an embedded object of a .reqifz is shown by where it stood in the text. */
const objectLabel = (node: XmlNode) => `[${node.attributes.data ?? "object"}]`;

function serialize(content: (XmlNode | string)[], out: string[]): void {
  for (const item of content) {
    if (typeof item === "string") {
      out.push(escapeHtml(item));
    } else if (item.name === "object") {
      // An object shows its file; nested objects are the same file in other formats (DOORS writes OLE with a PNG inside).
      out.push(escapeHtml(objectLabel(item)));
    } else {
      const attributes = Object.entries(item.attributes)
        .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
        .join("");
      out.push(`<${item.name}${attributes}>`);
      serialize(item.content, out);
      out.push(`</${item.name}>`);
    }
  }
}

/** An XHTML value (THE-VALUE's content) as safe HTML. */
export function xhtmlToSafeHtml(content: (XmlNode | string)[]): string {
  const out: string[] = [];
  serialize(content, out);
  return sanitizeHtml(out.join(""), SAFE_HTML).trim();
}

/** An XHTML value's text: blocks on lines of their own, runs of spaces as one. */
export function xhtmlToText(content: (XmlNode | string)[]): string {
  const parts: string[] = [];
  const walk = (items: (XmlNode | string)[]) => {
    for (const item of items) {
      if (typeof item === "string") {
        parts.push(item.replace(/\s+/g, " "));
      } else if (item.name === "object") {
        parts.push(objectLabel(item));
      } else if (item.name !== "script" && item.name !== "style") {
        if (BLOCKS.has(item.name)) parts.push("\n");
        walk(item.content);
        if (BLOCKS.has(item.name)) parts.push("\n");
      }
    }
  };
  walk(content);
  return parts
    .join("")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

/** The data file names of the objects in an XHTML value. */
export function objectFilesOf(content: (XmlNode | string)[]): string[] {
  const files: string[] = [];
  const walk = (items: (XmlNode | string)[]) => {
    for (const item of items) {
      if (typeof item === "string") continue;
      if (item.name === "object" && item.attributes.data) files.push(item.attributes.data);
      walk(item.content);
    }
  };
  walk(content);
  return files;
}

/** Plain text as HTML paragraphs (descriptions of imported requirements are HTML throughout). */
export const textToHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br />")}</p>`)
    .join("");
