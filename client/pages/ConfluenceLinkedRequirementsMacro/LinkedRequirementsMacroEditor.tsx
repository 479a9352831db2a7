import { parseRequirementIds, REQUIREMENTS_PARAMETER, requirementIdsParameter } from "../../api/confluence.js";
import { MacroRequirementsEditor } from "../../components/MacroRequirements/MacroRequirementsEditor.js";
import { useHost } from "../../host/index.js";

/**
 * `/confluence-linked-requirements-macro-editor` ('Link requirements to content'): the choice is the
 * macro's own `requirements` parameter, saved through Confluence's macro editor API; nothing is
 * linked in rmCloud.
 */
export function LinkedRequirementsMacroEditor() {
  const host = useHost();
  return (
    <MacroRequirementsEditor
      label="Link requirements to content"
      loadCurrent={async () => parseRequirementIds((await host.getMacroData())[REQUIREMENTS_PARAMETER])}
      save={async (requirementIds) => host.saveMacro(requirementIdsParameter(requirementIds))}
    />
  );
}
