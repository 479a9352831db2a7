import SectionMessage from "@atlaskit/section-message";

/** Spec section 8, verbatim (its spelling included). */
export const LICENSE_MESSAGE =
  "There was a problem with your rmCloud license.  Please try installing the add-on again or asking your adminstrator.";

export function MissingLicensePage() {
  return (
    <SectionMessage appearance="error" title="License problem">
      <p style={{ whiteSpace: "pre-wrap" }}>{LICENSE_MESSAGE}</p>
    </SectionMessage>
  );
}
