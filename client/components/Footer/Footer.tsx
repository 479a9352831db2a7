import Button from "@atlaskit/button/new";
import { Box, Inline } from "@atlaskit/primitives/compiled";

/** The support portal every 'Get help' advice of spec section 8 points to. */
export const SUPPORT_PORTAL_URL = "https://rmcloud.atlassian.net/servicedesk/customer/portals";

export function openSupportPortal(): void {
  window.open(SUPPORT_PORTAL_URL, "_blank", "noopener,noreferrer");
}

export function Footer() {
  return (
    <Box as="footer" paddingBlock="space.200">
      <Inline alignInline="center">
        <Button appearance="subtle" onClick={openSupportPortal}>
          Get help
        </Button>
      </Inline>
    </Box>
  );
}
