/**
 * Whether a description is rich text (HTML, as imports from ReqIF store it) rather than text typed
 * in the product: it opens with a block element and ends with a closing tag. Text such as
 * "<alarm> sounds" stays text.
 */
export const isRichText = (description: string) =>
  /^\s*<(p|div|ul|ol|table|h[1-6]|pre|blockquote)[\s>]/i.test(description) && /<\/[a-z0-9]+>\s*$/i.test(description);
