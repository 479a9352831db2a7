import { Suspense } from "react";
import { isRichText } from "../../../common/richText.js";
import { lazyNamed } from "../Lazy/lazyNamed.js";

// The sanitiser loads with the first rich description, not with the first screen (issue 39).
const RichTextHtml = lazyNamed(() => import("./RichTextHtml.js"), "RichTextHtml");

/** A requirement's description: imported rich text with its structure, typed text as typed. */
export function Description({ text, empty }: { text: string | null | undefined; empty: string }) {
  if (!text?.trim()) return <p>{empty}</p>;
  if (!isRichText(text)) return <p style={{ whiteSpace: "pre-wrap" }}>{text}</p>;
  return (
    <Suspense fallback={null}>
      <RichTextHtml html={text} />
    </Suspense>
  );
}
