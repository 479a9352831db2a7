import { FlagsProvider as AtlaskitFlagsProvider, useFlags as useAtlaskitFlags } from "@atlaskit/flag";
import CheckCircleIcon from "@atlaskit/icon/core/check-circle";
import ErrorIcon from "@atlaskit/icon/core/error";
import { token } from "@atlaskit/tokens";
import { useEffect, useRef } from "react";
import type { FlagRequest } from "./flagRequest.js";

/**
 * Normal-appearance flags with a coloured icon: Atlaskit's bold error flag hides its text until
 * expanded, and an error toast is only useful if the user reads why the save failed.
 */
function ShowRequests({ requests }: { requests: readonly FlagRequest[] }) {
  const { showFlag } = useAtlaskitFlags();
  const shown = useRef(0);
  useEffect(() => {
    for (const request of requests.slice(shown.current)) {
      showFlag({
        title: request.title,
        description: request.description,
        icon:
          request.kind === "success" ? (
            <CheckCircleIcon label="Success" color={token("color.icon.success")} />
          ) : (
            <ErrorIcon label="Error" color={token("color.icon.danger")} />
          ),
        isAutoDismiss: true,
      });
    }
    shown.current = requests.length;
  }, [requests, showFlag]);
  return null;
}

/** Atlaskit's flag group showing every toast asked for (client/components/Flags/Flags.tsx). */
export function FlagGroup({ requests }: { requests: readonly FlagRequest[] }) {
  return (
    <AtlaskitFlagsProvider>
      <ShowRequests requests={requests} />
    </AtlaskitFlagsProvider>
  );
}
