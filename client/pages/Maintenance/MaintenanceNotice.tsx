import SectionMessage from "@atlaskit/section-message";

/** Spec section 8, verbatim. */
export const MAINTENANCE_MESSAGE = "rmCloud is currently under maintenance.  Please check back soon!";

export function MaintenanceNotice() {
  return (
    <SectionMessage appearance="warning">
      <p style={{ whiteSpace: "pre-wrap" }}>{MAINTENANCE_MESSAGE}</p>
    </SectionMessage>
  );
}
