import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { confluenceKeys, loadSiteRequirements } from "../../api/confluence.js";
import { Problem, REQUIREMENTS_LOAD_ERROR, useMacroEditorSave } from "./MacroStates.js";
import { RequirementsChoice } from "./RequirementsChoice.js";

/**
 * A macro editor: the site's requirements to choose from, starting from the current choice, saved by
 * `save` on Confluence's Insert/Save button.
 */
export function MacroRequirementsEditor({
  label,
  loadCurrent,
  save,
}: {
  label: string;
  loadCurrent(): Promise<number[]>;
  save(requirementIds: number[]): Promise<void>;
}) {
  const requirements = useQuery({ queryKey: confluenceKeys.siteRequirements, queryFn: loadSiteRequirements, retry: false });
  const current = useQuery({ queryKey: ["confluence", "macro-editor", label], queryFn: loadCurrent, retry: false });
  const [chosen, setChosen] = useState<number[] | undefined>();
  useEffect(() => {
    if (current.data && chosen === undefined) setChosen(current.data);
  }, [current.data, chosen]);

  const failure = useMacroEditorSave(async () => {
    if (!current.data) throw new Error("The current choice is not loaded");
    await save(chosen ?? current.data);
  });

  return (
    <div style={{ padding: 16 }}>
      {requirements.isError || current.isError ? <Problem message={REQUIREMENTS_LOAD_ERROR} /> : null}
      {failure}
      <RequirementsChoice
        label={label}
        requirements={requirements.data ?? []}
        value={chosen ?? []}
        onChange={setChosen}
        isLoading={requirements.isLoading || current.isLoading}
      />
    </div>
  );
}
