import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { confluenceKeys, loadRequirementsById } from "../../api/confluence.js";
import { Problem, REQUIREMENTS_LOAD_ERROR, useMacroEditorSave } from "./MacroStates.js";
import { RequirementsChoice } from "./RequirementsChoice.js";

/**
 * A macro editor: the site's requirements searched as the user types, starting from the current
 * choice (read by id for its labels), saved by `save` on Confluence's Insert/Save button.
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
  const current = useQuery({ queryKey: ["confluence", "macro-editor", label], queryFn: loadCurrent, retry: false });
  const currentIds = current.data ?? [];
  const labelled = useQuery({
    queryKey: confluenceKeys.chosenRequirements(currentIds),
    queryFn: () => loadRequirementsById(currentIds),
    enabled: current.isSuccess,
    retry: false,
  });
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
      {labelled.isError || current.isError ? <Problem message={REQUIREMENTS_LOAD_ERROR} /> : null}
      {failure}
      <RequirementsChoice
        label={label}
        known={labelled.data ?? []}
        value={chosen ?? []}
        onChange={setChosen}
        isLoading={current.isLoading || labelled.isLoading}
      />
    </div>
  );
}
