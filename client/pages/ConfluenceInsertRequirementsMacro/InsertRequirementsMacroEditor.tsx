import { useRef } from "react";
import { loadRequirementsOfContent, saveRequirementsOfContent } from "../../api/confluence.js";
import { withLinkChanges } from "../../api/linkListChanges.js";
import { MacroRequirementsEditor } from "../../components/MacroRequirements/MacroRequirementsEditor.js";
import { useHost } from "../../host/index.js";
import { contentIdOf } from "./InsertRequirementsMacro.js";

/**
 * `/confluence-insert-requirements-macro-editor`: the requirements linked to this page, saved in
 * rmCloud with `PUT /api/confluence/content/{contentId}` (the whole list replaces the previous one,
 * so the editor's changes are applied to the list as it is when saving).
 */
export function InsertRequirementsMacroEditor() {
  const host = useHost();
  const loaded = useRef<number[]>([]);
  const contentId = () => contentIdOf(window.location.search, () => host.getContext());
  const linkedNow = async () => (await loadRequirementsOfContent(await contentId())).map((r) => r.requirement_id);
  return (
    <MacroRequirementsEditor
      label="Link requirements to this page"
      loadCurrent={async () => {
        loaded.current = await linkedNow();
        return loaded.current;
      }}
      save={async (chosen) => {
        const latest = await linkedNow();
        await saveRequirementsOfContent(await contentId(), withLinkChanges({ loaded: loaded.current, chosen, latest }));
        // The macro has no parameters of its own; saving it puts it on the page.
        host.saveMacro({});
      }}
    />
  );
}
