import DOMPurify from "dompurify";
import { RICH_TEXT_LINK_SCHEMES, RICH_TEXT_TAGS } from "../../../common/richText.js";

const ALLOWED_ATTR = ["href", "colspan", "rowspan"];

const purifier = DOMPurify();
// A link opens outside the host page's iframe, and never on a javascript: or data: address.
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A") return;
  const scheme = /^([a-z]+):/i.exec(node.getAttribute("href") ?? "")?.[1]?.toLowerCase();
  if (!RICH_TEXT_LINK_SCHEMES.some((allowed) => allowed === scheme)) node.removeAttribute("href");
  node.setAttribute("target", "_blank");
  node.setAttribute("rel", "noopener noreferrer");
});

/**
 * Rich text as its author wrote it (paragraphs, lists, bold, tables), sanitised again in the browser,
 * where markup would run: the server sanitised it on import, but stored HTML is never trusted.
 */
export function RichTextHtml({ html }: { html: string }) {
  const safe = purifier.sanitize(html, { ALLOWED_TAGS: [...RICH_TEXT_TAGS], ALLOWED_ATTR, ADD_ATTR: ["target"] });
  return (
    <div
      className="rmcloud-rich-text"
      style={{ overflowWrap: "anywhere" }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above, with an allow-list of tags and attributes.
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
