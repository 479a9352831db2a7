import Heading from "@atlaskit/heading";
import { Box, Stack, Text } from "@atlaskit/primitives";
import { SUPPORT_PORTAL_URL } from "../../components/Footer/Footer.js";

export const GETTING_STARTED_VIDEO_URL = "https://rmcloud.atlassian.net/videos/getting-started-with-rmcloud.mp4";

const HELP_LINKS = [
  { label: "Documentation: managing requirements and folders", href: "https://rmcloud.atlassian.net/wiki/spaces/RMC/overview" },
  { label: "Traceability matrix and baselines explained", href: "https://rmcloud.atlassian.net/wiki/spaces/RMC/pages/traceability" },
  { label: "Importing requirements from CSV", href: "https://rmcloud.atlassian.net/wiki/spaces/RMC/pages/import" },
  { label: "Get help from rmCloud support", href: SUPPORT_PORTAL_URL },
];

/** /getting-started: the welcome page shown after installation. */
export function GettingStartedPage() {
  return (
    <Box padding="space.300">
      <Stack space="space.200">
        <Heading size="large">Welcome to rmCloud</Heading>
        <Text as="p">
          Manage requirements per Jira project or as Global Requirements, link them to issues, Confluence pages and each other, follow them
          in the traceability matrix and freeze them in baselines. Open a project and choose rmCloud in its sidebar to start.
        </Text>
        <Heading size="medium">Watch the introduction</Heading>
        {/* biome-ignore lint/a11y/useMediaCaption: the introduction video has no spoken content to caption */}
        <video controls width="640" src={GETTING_STARTED_VIDEO_URL} title="Getting started with rmCloud">
          <a href={GETTING_STARTED_VIDEO_URL} target="_blank" rel="noopener noreferrer">
            Watch the introduction video
          </a>
        </video>
        <Heading size="medium">Help</Heading>
        <ul>
          {HELP_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </Stack>
    </Box>
  );
}
