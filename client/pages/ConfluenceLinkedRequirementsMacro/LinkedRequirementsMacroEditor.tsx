import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { loadSiteRequirements, parseRequirementIds, REQUIREMENTS_PARAMETER, requirementIdsParameter } from "../../api/confluence.js";
import { RequirementsChoice } from "../../components/MacroRequirements/RequirementsChoice.js";
import { Problem, REQUIREMENTS_LOAD_ERROR, useMacroEditorSave } from "../../components/MacroRequirements/MacroStates.js";
import { useHost } from "../../host/index.js";

/**
 * `/confluence-linked-requirements-macro-editor` ('Link requirements to content'): the choice is the
 * macro's own `requirements` parameter, saved through Confluence's macro editor API; nothing is
 * linked in rmCloud.
 */
export function LinkedRequirementsMacroEditor() {
  const host = useHost();
  const requirements = useQuery({ queryKey: ["confluence", "site-requirements"], queryFn: loadSiteRequirements, retry: false });
  const current = useQuery({
    queryKey: ["confluence", "macro-data"],
    queryFn: async () => parseRequirementIds((await host.getMacroData())[REQUIREMENTS_PARAMETER]),
    retry: false,
  });
  const [chosen, setChosen] = useState<number[] | undefined>();
  useEffect(() => {
    if (current.data && chosen === undefined) setChosen(current.data);
  }, [current.data, chosen]);

  const failure = useMacroEditorSave(async () => host.saveMacro(requirementIdsParameter(chosen ?? current.data ?? [])));

  return (
    <div style={{ padding: 16 }}>
      {requirements.isError ? <Problem message={REQUIREMENTS_LOAD_ERROR} /> : null}
      {failure}
      <RequirementsChoice
        label="Link requirements to content"
        requirements={requirements.data ?? []}
        value={chosen ?? []}
        onChange={setChosen}
        isLoading={requirements.isLoading || current.isLoading}
      />
    </div>
  );
}
