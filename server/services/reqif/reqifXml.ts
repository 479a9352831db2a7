import sanitizeHtml from "sanitize-html";
import { isRichText } from "../../../common/richText.js";
import { SAFE_HTML, textToHtml } from "./reqifXhtml.js";

export const REQIF_NAMESPACE = "http://www.omg.org/spec/ReqIF/20110401/reqif.xsd";
export const XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/** Text as XML character data or an attribute value (characters XML 1.0 cannot hold are dropped). */
export const xml = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the control characters XML 1.0 forbids
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/** An element with attributes (undefined ones left out) and inner XML. */
export function element(name: string, attributes: Record<string, string | undefined>, inner?: string): string {
  const written = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xml(value)}"`)
    .join("");
  return inner === undefined ? `<${name}${written}/>` : `<${name}${written}>${inner}</${name}>`;
}

/** `<HOLDER><REF-NAME>id</REF-NAME></HOLDER>`, ReqIF's way of pointing at an identifiable. */
export const ref = (holder: string, refName: string, identifier: string) =>
  `<${holder}><${refName}>${xml(identifier)}</${refName}></${holder}>`;

/**
 * The XHTML 1.1 modules ReqIF's schema admits: the import's safe tags, less those XHTML 1.1 has
 * not (u, s); their text stays.
 */
const EXPORTED_HTML: sanitizeHtml.IOptions = {
  ...SAFE_HTML,
  allowedTags: (SAFE_HTML.allowedTags as string[]).filter((tag) => tag !== "u" && tag !== "s"),
  selfClosing: ["br", "hr"],
};

/**
 * A description as the content of an XHTML value: HTML (an imported description) made safe, plain
 * text (one typed in the product) as paragraphs; each tag in the XHTML namespace, in one div.
 * The sanitiser writes every element closed and only XML's own entities, so its output is XML.
 */
export function descriptionAsXhtml(description: string, trailing = ""): string {
  const html = isRichText(description) ? description : textToHtml(description);
  const safe = sanitizeHtml(html, EXPORTED_HTML).replace(/&nbsp;/g, "&#160;");
  return `<xhtml:div>${safe.replace(/<(\/?)([a-z][a-z0-9]*)/g, "<$1xhtml:$2")}${trailing}</xhtml:div>`;
}

/** An XML name ReqIF accepts as an IDENTIFIER (xsd:ID). */
export const isXmlId = (identifier: string) => /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(identifier);
