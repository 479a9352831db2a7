import Heading from "@atlaskit/heading";
import { Box, Stack } from "@atlaskit/primitives";
import { ConfluenceInfoSection } from "./ConfluenceInfoSection.js";
import { CustomFieldsSection } from "./CustomFieldsSection.js";
import { OtherSettingsSection } from "./OtherSettingsSection.js";
import { RequirementTypesSection } from "./RequirementTypesSection.js";

/** The Connect configure page (/configuration): spec section 2, Configuration screen. */
export function ConfigurationPage() {
  return (
    <Box padding="space.300">
      <Stack space="space.500">
        <Heading size="large" as="h1">
          rmCloud configuration
        </Heading>
        <RequirementTypesSection />
        <CustomFieldsSection />
        <ConfluenceInfoSection />
        <OtherSettingsSection />
      </Stack>
    </Box>
  );
}
