import { loadRequirementsOfContent, saveRequirementsOfContent } from "../../api/confluence.js";
import { MacroRequirementsEditor } from "../../components/MacroRequirements/MacroRequirementsEditor.js";
import { useHost } from "../../host/index.js";
import { contentIdOf } from "./InsertRequirementsMacro.js";

/**
 * `/confluence-insert-requirements-macro-editor`: the requirements linked to this page, saved in
 * rmCloud with `PUT /api/confluence/content/{contentId}` (the whole list replaces the previous one).
 */
export function InsertRequirementsMacroEditor() {
  const host = useHost();
  const contentId = () => contentIdOf(window.location.search, () => host.getContext());
  return (
    <MacroRequirementsEditor
      label="Link requirements to this page"
      loadCurrent={async () => (await loadRequirementsOfContent(await contentId())).map((r) => r.requirement_id)}
      save={async (requirementIds) => {
        await saveRequirementsOfContent(await contentId(), requirementIds);
        // The macro has no parameters of its own; saving it puts it on the page.
        host.saveMacro({});
      }}
    />
  );
}
