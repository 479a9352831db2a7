import SectionMessage from "@atlaskit/section-message";
import { NOT_FOUND_TEXT, NOT_FOUND_TITLES } from "./notFoundText.js";

/**
 * What a deep link to a requirement or project the user may not see shows: the same as one that
 * does not exist (the server never tells them apart), instead of an error.
 */
export function NotFound({ thing }: { thing: keyof typeof NOT_FOUND_TITLES }) {
  return (
    <SectionMessage appearance="warning" title={NOT_FOUND_TITLES[thing]}>
      {NOT_FOUND_TEXT}
    </SectionMessage>
  );
}
