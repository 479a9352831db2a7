/**
 * Whether a description is rich text (HTML, as imports from ReqIF store it) rather than text typed
 * in the product: it opens with a block element and ends with a closing tag. Text such as
 * "<alarm> sounds" stays text.
 */
export const isRichText = (description: string) =>
  /^\s*<(p|div|ul|ol|table|h[1-6]|pre|blockquote)[\s>]/i.test(description) && /<\/[a-z0-9]+>\s*$/i.test(description);

/**
 * What rich text may keep, on import (the server's sanitiser) and on screen (the browser's) alike:
 * structure (paragraphs, lists, emphasis, tables, headings, links), never anything that runs
 * (scripts, handlers, styles, frames, forms) or loads (images, objects).
 */
export const RICH_TEXT_TAGS = [
  "p",
  "br",
  "div",
  "span",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "sub",
  "sup",
  "ul",
  "ol",
  "li",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "code",
  "blockquote",
  "a",
  "hr",
] as const;

/** The only addresses a rich text's link may have. */
export const RICH_TEXT_LINK_SCHEMES = ["http", "https", "mailto"] as const;
