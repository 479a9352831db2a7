import DOMPurify from "dompurify";

/** What imported rich text may keep (the server's ReqIF import allows the same): structure, never behaviour. */
const ALLOWED_TAGS = [
  "p",
  "br",
  "ul",
  "ol",
  "li",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "sub",
  "sup",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
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
  "span",
  "div",
];
const ALLOWED_ATTR = ["href", "colspan", "rowspan"];

const purifier = DOMPurify();
// A link opens outside the host page's iframe, and never on a javascript: or data: address.
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A") return;
  if (!/^(https?:|mailto:)/i.test(node.getAttribute("href") ?? "")) node.removeAttribute("href");
  node.setAttribute("target", "_blank");
  node.setAttribute("rel", "noopener noreferrer");
});

/**
 * Rich text as its author wrote it (paragraphs, lists, bold, tables), sanitised again in the browser,
 * where markup would run: the server sanitised it on import, but stored HTML is never trusted.
 */
export function RichTextHtml({ html }: { html: string }) {
  const safe = purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ADD_ATTR: ["target"] });
  return (
    <div
      className="rmcloud-rich-text"
      style={{ overflowWrap: "anywhere" }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above, with an allow-list of tags and attributes.
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
