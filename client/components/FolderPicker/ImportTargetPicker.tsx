import { token } from "@atlaskit/tokens";
import { FolderPicker } from "./FolderPicker.js";

/**
 * 'Import into' of the CSV and ReqIF imports: a folder at any depth, or 'Top Level' (null).
 * `ancestors`, the chosen folder's parents outermost first, are opened after the import so that
 * its requirements show.
 */
export function ImportTargetPicker({
  projectId,
  value,
  onChange,
  isDisabled,
}: {
  projectId: number;
  value: number | null;
  onChange(folderId: number | null, ancestors: number[]): void;
  isDisabled: boolean;
}) {
  return (
    <>
      <h4 style={{ marginTop: token("space.200") }}>Import into</h4>
      <FolderPicker
        projectId={projectId}
        label="Import into"
        topLevelLabel="Top Level"
        restrictions={{ currentFolderId: undefined }}
        value={value}
        onChange={(folderId, ancestors) => onChange(folderId, [...ancestors])}
        isDisabled={isDisabled}
      />
    </>
  );
}
