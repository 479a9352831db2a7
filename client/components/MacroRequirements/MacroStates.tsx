import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../api/client.js";
import { useHost } from "../../host/index.js";

/** Spec section 8. */
export const REQUIREMENTS_LOAD_ERROR = "There was an error loading your requirements";
export const LINKS_SAVE_ERROR =
  'There was an error saving your linked requirements. Please contact rmCloud support via the "Get help" button on the Requirements page.';

export function Loading() {
  return <Spinner size="medium" label="Loading" />;
}

/** A failure the user can do nothing about but ask for help; the server's own text follows when it has one. */
export function Problem({ message, error }: { message: string; error?: unknown }) {
  return (
    <SectionMessage appearance="error">
      <p>{message}</p>
      {error instanceof ApiError && error.status < 500 ? <p>{error.message}</p> : null}
    </SectionMessage>
  );
}

/**
 * A macro editor's save on Confluence's Insert/Save button: `save` runs, then the editor closes;
 * a failure keeps it open with the spec's message.
 */
export function useMacroEditorSave(save: () => Promise<void>) {
  const host = useHost();
  const [failure, setFailure] = useState<unknown>();
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    host.onDialogSubmit(async () => {
      try {
        setFailure(undefined);
        await latest.current();
        host.closeMacroEditor();
      } catch (error) {
        setFailure(error ?? new Error("save failed"));
      }
      // Confluence's editor is closed with closeMacroEditor, never by the dialog itself.
      return false;
    });
  }, [host]);
  useEffect(() => host.sizeToParent(), [host]);
  return failure === undefined ? null : <Problem message={LINKS_SAVE_ERROR} error={failure} />;
}
